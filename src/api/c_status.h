// c_status.h: how the C API (include/gaugefix/gaugefix_c.h) reports errors. c_call runs a
// call's body and turns what it throws into a gaugefix_status, keeping the message for
// gaugefix_last_error() (one per thread); a success clears it. c_require_pointer throws the
// NULL_ARGUMENT error naming the function and the argument.
#pragma once
#include "gaugefix/gaugefix.h"
#include "gaugefix/gaugefix_c.h"
#include <exception>
#include <new>
#include <string>

namespace gaugefix::c_api {

struct NullArgument {
  std::string message;
};

void set_last_error(const std::string& message);

inline void c_require_pointer(const void* p, const char* function, const char* argument) {
  if (p == nullptr) throw NullArgument{std::string(function) + ": " + argument + " is NULL"};
}

template <class F>
gaugefix_status c_call(const char* function, F body) {
  try {
    set_last_error("");
    body();
    return GAUGEFIX_OK;
  } catch (const NullArgument& e) {
    set_last_error(e.message);
    return GAUGEFIX_NULL_ARGUMENT;
  } catch (const Error& e) { // already names the C++ function, e.g. "fix: tolerance: ..."
    set_last_error(std::string(function) + ": " + e.what());
    return GAUGEFIX_ERROR;
  } catch (const std::bad_alloc&) {
    set_last_error(std::string(function) + ": out of memory");
    return GAUGEFIX_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error(std::string(function) + ": " + e.what());
    return GAUGEFIX_ERROR;
  }
}

} // namespace gaugefix::c_api
