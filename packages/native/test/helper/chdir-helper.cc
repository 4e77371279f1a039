// Test-only: "other native code" that calls chdir(2) behind the provider's back, without touching the generation.
#include <node_api.h>
#include <unistd.h>

#include <cerrno>

namespace {

// chdir(path) -> 0 or errno.
napi_value Chdir(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  char path[8192];
  size_t length = 0;
  napi_value result;
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], path, sizeof path, &length) != napi_ok) {
    napi_throw_type_error(env, nullptr, "chdir(path: string)");
    return nullptr;
  }
  napi_create_int32(env, ::chdir(path) == 0 ? 0 : errno, &result);
  return result;
}

napi_value Init(napi_env env, napi_value exports) {
  napi_value chdir;
  napi_create_function(env, "chdir", NAPI_AUTO_LENGTH, Chdir, nullptr, &chdir);
  napi_set_named_property(env, exports, "chdir", chdir);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
