// c_fields.h: what the C API's handle gaugefix_field (include/gaugefix/gaugefix_c.h) holds.
#pragma once
#include "gaugefix/gaugefix.h"
#include "gaugefix/gaugefix_c.h"

struct gaugefix_field {
  gaugefix::Field field;
};
