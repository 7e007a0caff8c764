/* check_main.h - what a Check test program gives the shared main (check_main.c). */
#ifndef TIR_CHECK_MAIN_H
#define TIR_CHECK_MAIN_H

#include <check.h>

/* The program's suite, built afresh (the main runs and frees it). */
Suite *check_suite(void);

#endif
