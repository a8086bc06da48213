#ifndef ENERGYLAB_CFIXEDFORMAT_H
#define ENERGYLAB_CFIXEDFORMAT_H

#include <stddef.h>

/// Writes `value` as C's printf("%.*f", digits, value) prints it into
/// `buffer` (at most `capacity` bytes, NUL included) and returns the length
/// of the whole text, as snprintf does: a result of `capacity` or more means
/// the text was cut and needs a buffer of result + 1 bytes.
///
/// A fixed (not variadic) signature, so Swift calls it without building a
/// va_list: Swift's va_list builder casts each argument at run time, and
/// those casts contend in the runtime's conformance cache between threads.
int energylab_format_fixed(char *buffer, size_t capacity, double value, int digits);

#endif
