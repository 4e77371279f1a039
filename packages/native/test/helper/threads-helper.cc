// Test-only: "native code that starts threads of its own", as a Rust (rayon, tokio) or libvips addon does. Each pool
// is one thread, made once per process by the first thread that needs it, that reads a file by a relative path for
// any thread that asks. @cwdkit/thread-cwd's kernel mode must leave such threads in the process's cwd.
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <node_api.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace {

// One thread that reads `name` (relative: in its own cwd) and answers its first line, or the errno's name.
struct Pool {
  std::mutex call;  // one request at a time
  std::mutex mutex;
  std::condition_variable asked, answered;
  std::string path, answer;
  bool pending = false;
  bool started = false;

  void Serve() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      asked.wait(lock, [this] { return pending; });
      answer = ReadHere(path);
      pending = false;
      answered.notify_all();
    }
  }

  static std::string ReadHere(const std::string& name) {
    int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? "ENOENT" : errno == EACCES ? "EACCES" : "E" + std::to_string(errno);
    char text[256];
    ssize_t size = ::read(fd, text, sizeof text);
    ::close(fd);
    return size < 0 ? "EIO" : std::string(text, static_cast<size_t>(size));
  }

  std::string Read(const std::string& name) {
    std::lock_guard<std::mutex> one(call);
    std::unique_lock<std::mutex> lock(mutex);
    path = name;
    pending = true;
    asked.notify_all();
    answered.wait(lock, [this] { return !pending; });
    return answer;
  }
};

void* ServePosix(void* pool) {
  static_cast<Pool*>(pool)->Serve();
  return nullptr;
}

// Started at the addon's first load, by pthread_create, by std::thread. Never destroyed, and the addon pinned: Node
// unloads an addon with the last environment that loaded it (a worker's), and its threads run on.
Pool& atInit = *new Pool();
Pool& posix = *new Pool();
Pool& standard = *new Pool();
std::once_flag atInitStarted, posixStarted, standardStarted;

void StartPosix(Pool* pool) {
  pthread_t thread;
  if (pthread_create(&thread, nullptr, &ServePosix, pool) == 0) pthread_detach(thread);
}

std::string Argument(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  char text[4096];
  size_t length = 0;
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], text, sizeof text, &length) != napi_ok) return "";
  return std::string(text, length);
}

napi_value Answer(napi_env env, const std::string& text) {
  napi_value value;
  napi_create_string_utf8(env, text.c_str(), text.size(), &value);
  return value;
}

// read(name): on a pthread_create pool, made by the first caller.
napi_value Read(napi_env env, napi_callback_info info) {
  std::call_once(posixStarted, [] { StartPosix(&posix); });
  return Answer(env, posix.Read(Argument(env, info)));
}

// readStd(name): on a std::thread pool (libstdc++'s own pthread_create call), made by the first caller.
napi_value ReadStd(napi_env env, napi_callback_info info) {
  std::call_once(standardStarted, [] { std::thread([] { standard.Serve(); }).detach(); });
  return Answer(env, standard.Read(Argument(env, info)));
}

// readAtInit(name): on the pool made while the addon first loaded.
napi_value ReadAtInit(napi_env env, napi_callback_info info) {
  return Answer(env, atInit.Read(Argument(env, info)));
}

// readHere(name): on the calling thread.
napi_value ReadOnCaller(napi_env env, napi_callback_info info) {
  return Answer(env, Pool::ReadHere(Argument(env, info)));
}

// threadFacts(): what a thread made now (pthread_create, joined) has of its maker's: its nice, its seccomp mode, whether
// it may mkdir here, and its cwd.
void* Facts(void* out) {
  auto* facts = static_cast<std::string*>(out);
  char cwd[4096] = "?";
  if (::getcwd(cwd, sizeof cwd) == nullptr) std::strcpy(cwd, "?");
  int made = ::mkdir("threads-helper-probe", 0700) == 0 ? 0 : errno;
  if (made == 0) ::rmdir("threads-helper-probe");
  *facts = "nice=" + std::to_string(::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)))) +
           " seccomp=" + std::to_string(::prctl(PR_GET_SECCOMP, 0, 0, 0, 0)) +
           " mkdir=" + (made == 0 ? std::string("made") : made == EPERM ? std::string("EPERM") : std::to_string(made)) +
           " cwd=" + cwd;
  return nullptr;
}

napi_value ThreadFacts(napi_env env, napi_callback_info) {
  std::string facts = "no thread";
  pthread_t thread;
  if (pthread_create(&thread, nullptr, &Facts, &facts) == 0) pthread_join(thread, nullptr);
  return Answer(env, facts);
}

// confine(): this thread (and the threads it makes) may no longer mkdir: no_new_privs and a seccomp filter, as a
// sandbox sets them. 0 or an errno.
napi_value Confine(napi_env env, napi_callback_info) {
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __NR_mkdir
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdir, 1, 0),
#else
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdirat, 1, 0),
#endif
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdirat, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  int error = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                      ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) == 0
                  ? 0
                  : errno;
  napi_value value;
  napi_create_int32(env, error, &value);
  return value;
}

napi_value Init(napi_env env, napi_value exports) {
  std::call_once(atInitStarted, [] {
    Dl_info self;
    if (dladdr(reinterpret_cast<void*>(&Init), &self) != 0) dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    StartPosix(&atInit);
  });
  const napi_property_descriptor functions[] = {
      {"read", nullptr, Read, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"readStd", nullptr, ReadStd, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"readAtInit", nullptr, ReadAtInit, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"readHere", nullptr, ReadOnCaller, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"threadFacts", nullptr, ThreadFacts, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"confine", nullptr, Confine, nullptr, nullptr, nullptr, napi_default_method, nullptr},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
