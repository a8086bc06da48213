#include "CFixedFormat.h"

#include <stdio.h>

int energylab_format_fixed(char *buffer, size_t capacity, double value, int digits) {
  return snprintf(buffer, capacity, "%.*f", digits, value);
}
