// The native half of @cwdkit/native: getcwd/chdir, a process-wide generation counter and watcher threads.
//
// Loaded once per environment (main thread, each worker; trap 6): everything that belongs to one environment lives
// in EnvState (instance data, freed by a cleanup hook); the only static is the generation, which is truly
// process-wide, atomic and trivially destructible, so a thread still running at exit() never sees it destroyed.

#include <napi.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

namespace {

// Bumped after every change of directory we know of (trap 1: after the chdir, never before). JS reads it straight
// from memory through an external ArrayBuffer, so the hot path of cached mode makes no native call.
alignas(64) std::atomic<int32_t> generation{0};
static_assert(std::atomic<int32_t>::is_always_lock_free, "JS reads the generation as a plain 32-bit integer");
static_assert(sizeof(std::atomic<int32_t>) == sizeof(int32_t), "JS reads the generation as a plain 32-bit integer");

// getcwd(3) into a buffer that grows until the path fits: no truncation at PATH_MAX. Returns 0 or an errno.
// `small` is tried first so that the usual case allocates nothing.
template <typename Done>
int ReadCwd(Done done) {
  char small[4096];
  if (::getcwd(small, sizeof small) != nullptr) {
    done(small);
    return 0;
  }
  // glibc reports a path longer than the kernel's page as ENAMETOOLONG from the syscall, then walks ".." itself
  // when given a larger buffer; everyone reports a too-small buffer as ERANGE.
  int error = errno;
  for (size_t size = 2 * sizeof small; error == ERANGE || error == ENAMETOOLONG; size *= 2) {
    if (size > (size_t{1} << 24)) return ENAMETOOLONG;
    std::unique_ptr<char[]> large(new char[size]);
    if (::getcwd(large.get(), size) != nullptr) {
      done(large.get());
      return 0;
    }
    error = errno;
  }
  return error;
}

const char* ErrnoName(int error) {
  switch (error) {
#define NAME(e) \
  case e:       \
    return #e;
    NAME(EACCES)
    NAME(EFAULT)
    NAME(EINVAL)
    NAME(EIO)
    NAME(ELOOP)
    NAME(ENAMETOOLONG)
    NAME(ENOENT)
    NAME(ENOMEM)
    NAME(ENOTDIR)
    NAME(EPERM)
    NAME(ERANGE)
#undef NAME
    default:
      return "UNKNOWN";
  }
}

// A thread that polls getcwd every `interval` and bumps the generation when the directory changed behind our back
// (a chdir(2) by other native code). It also bumps once after each of our own chdirs: one extra miss, never a stale
// read. Destroying the Watcher stops and joins the thread, which wakes at once.
class Watcher {
 public:
  // The first reading is taken here, before the constructor returns, and the generation is bumped after it: a change
  // made before this watcher existed is then not hidden from the caches either.
  explicit Watcher(std::chrono::milliseconds interval)
      : interval_(interval), seenError_(ReadCwd([this](const char* path) { seen_.assign(path); })) {
    generation.fetch_add(1, std::memory_order_seq_cst);
    thread_ = std::thread([this] { Run(); });
  }
  ~Watcher() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

 private:
  void Run() {
    std::string now;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
      int error = ReadCwd([&](const char* path) { now.assign(path); });
      if (error != 0) now.clear();
      if (error != seenError_ || now != seen_) {
        seen_.swap(now);
        seenError_ = error;
        generation.fetch_add(1, std::memory_order_seq_cst);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  const std::chrono::milliseconds interval_;
  std::string seen_;  // the last reading, and its errno (0 when it succeeded)
  int seenError_;
  std::thread thread_;
};

// Per-environment state (instance data). The environment's cleanup hook owns it: it stops this environment's
// watchers and frees it when the main thread or a worker tears down.
struct EnvState {
  std::unordered_map<uint32_t, std::unique_ptr<Watcher>> watchers;
  uint32_t nextWatcher = 1;
};

EnvState* State(const Napi::CallbackInfo& info) {
  return info.Env().GetInstanceData<EnvState>();
}

void CleanUp(void* data) {
  delete static_cast<EnvState*>(data);  // ~Watcher joins each thread
}

Napi::Value Getcwd(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Value result;
  int error = ReadCwd([&](const char* path) { result = Napi::String::New(env, path); });
  if (error == 0) return result;
  // The shape of core's readOsCwd error, so that every strategy fails alike.
  Napi::Error failure = Napi::Error::New(env, std::string(ErrnoName(error)) + ": " + std::strerror(error) + ", uv_cwd");
  failure.Set("code", ErrnoName(error));
  failure.Set("errno", Napi::Number::New(env, -error));
  failure.Set("syscall", "uv_cwd");
  failure.ThrowAsJavaScriptException();
  return env.Undefined();
}

// chdir(2), then publish (trap 1). Returns 0 or the errno; JS turns it into core's chdir error.
Napi::Value Chdir(const Napi::CallbackInfo& info) {
  std::string directory = info[0].As<Napi::String>().Utf8Value();
  if (::chdir(directory.c_str()) != 0) {
    int error = errno;
    return Napi::Number::New(info.Env(), error);
  }
  generation.fetch_add(1, std::memory_order_seq_cst);
  return Napi::Number::New(info.Env(), 0);
}

// Plain Node-API, like Noop: on the hot path of the fallback, node-addon-api's CallbackInfo would double the cost.
napi_value Generation(napi_env env, napi_callback_info) {
  napi_value value = nullptr;
  napi_create_uint32(env, static_cast<uint32_t>(generation.load(std::memory_order_seq_cst)), &value);
  return value;
}

void Bump(const Napi::CallbackInfo&) {
  generation.fetch_add(1, std::memory_order_seq_cst);
}

napi_value Noop(napi_env, napi_callback_info) {
  return nullptr;
}

Napi::Value Watch(const Napi::CallbackInfo& info) {
  EnvState* state = State(info);
  uint32_t id = state->nextWatcher++;
  auto interval = std::chrono::milliseconds(info[0].As<Napi::Number>().Int64Value());
  state->watchers.emplace(id, std::make_unique<Watcher>(interval));
  return Napi::Number::New(info.Env(), id);
}

void Unwatch(const Napi::CallbackInfo& info) {
  State(info)->watchers.erase(info[0].As<Napi::Number>().Uint32Value());
}

// An ArrayBuffer over the generation itself, or undefined where the runtime refuses external memory (or copies
// it, which would freeze the value): JS then reads the generation through a call.
Napi::Value GenerationBuffer(Napi::Env env) {
  void* memory = &generation;
  napi_value buffer;
  if (napi_create_external_arraybuffer(env, memory, sizeof generation, nullptr, nullptr, &buffer) != napi_ok) {
    napi_value ignored;
    napi_get_and_clear_last_exception(env, &ignored);
    return env.Undefined();
  }
  void* data = nullptr;
  size_t length = 0;
  if (napi_get_arraybuffer_info(env, buffer, &data, &length) != napi_ok || data != memory) return env.Undefined();
  return Napi::Value(env, buffer);
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  auto* state = new EnvState();
  // Freed by CleanUp, never by a finalizer: one owner.
  if (napi_set_instance_data(env, state, nullptr, nullptr) != napi_ok ||
      napi_add_env_cleanup_hook(env, CleanUp, state) != napi_ok) {
    delete state;
    Napi::Error::New(env, "cwdkit: could not register an environment cleanup hook").ThrowAsJavaScriptException();
    return exports;
  }
  exports.Set("getcwd", Napi::Function::New<Getcwd>(env, "getcwd"));
  exports.Set("chdir", Napi::Function::New<Chdir>(env, "chdir"));
  exports.Set("bump", Napi::Function::New<Bump>(env, "bump"));
  exports.Set("watch", Napi::Function::New<Watch>(env, "watch"));
  exports.Set("unwatch", Napi::Function::New<Unwatch>(env, "unwatch"));
  for (auto [name, callback] : {std::pair{"noop", Noop}, std::pair{"generation", Generation}}) {
    napi_value function;
    napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, nullptr, &function);
    exports.Set(name, function);
  }
  exports.Set("generationBuffer", GenerationBuffer(env));
  return exports;
}

}  // namespace

NODE_API_MODULE(cwdkit, Init)
