/*
 * profile_int.h — what profile.c defines beyond profile.h for the tests and
 * the benchmarks alone: the engine calls none of it, so it is not part of
 * profile.h's interface.
 */
#ifndef GP_PROFILE_INT_H
#define GP_PROFILE_INT_H

#include "profile.h"

/* CATS eq. 3's dynamic slope as the profile's own figures give it: the
 * power above idle at f_max over f_max, W/MHz. */
double gpu_profile_derived_alpha(const gpu_profile *g);

#endif
