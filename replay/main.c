/* main.c - tir-replay's entry point: everything lives in libtir (cli.c). */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
