/* cli.h - the tir-replay command line (a contract scripts rely on: see tir-replay(1)). */
#ifndef TIR_CLI_H
#define TIR_CLI_H
int cli_main(int argc, char **argv);
#endif
