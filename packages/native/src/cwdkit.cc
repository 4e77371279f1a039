// The native half of @cwdkit/native: getcwd, and one watch thread per environment.
//
// The generation is not here: it lives in a SharedArrayBuffer that JS finds through @cwdkit/core's sharedMemory(),
// so that every copy and version of this addon loaded in the process, and every thread, bumps and reads the same one.
// The watch thread bumps it through a pointer into that buffer, which its environment keeps alive with a reference
// until the thread is joined.
//
// Loaded once per environment (main thread, each worker; trap 6): everything lives in EnvState (instance data, freed
// by a cleanup hook). The one static is a counter for diagnostics and tests: how many watch threads this addon file
// has started in the process and not yet joined (watchThreads()), which no thread of the runtime's own can move.
//
// Built with exceptions off: nothing here may throw. Threads are started with pthread_create / CreateThread, whose
// failure (a thread limit) is an error code turned into a JS error, never an abort.

#include <napi.h>

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#endif
#ifdef __linux__
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sched.h>  // unshare, CLONE_FS (g++ defines _GNU_SOURCE)
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <new>

#include <cstdlib>
#endif

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

namespace {

static_assert(std::atomic<uint32_t>::is_always_lock_free, "JS reads the generation as a plain 32-bit integer");
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "JS reads the generation as a plain 32-bit integer");

// Watch threads started by this addon file (every environment of the process) and not yet joined.
std::atomic<int32_t> liveWatchThreads{0};

#ifdef _WIN32
// The cwd as UTF-8, from GetCurrentDirectoryW's UTF-16. Returns 0 or the Windows error code.
int ReadCwd(std::string& out) {
  DWORD length = GetCurrentDirectoryW(0, nullptr);  // including the terminating NUL
  for (;;) {
    if (length == 0) return static_cast<int>(GetLastError());
    std::unique_ptr<wchar_t[]> wide(new wchar_t[length]);
    DWORD written = GetCurrentDirectoryW(length, wide.get());
    if (written == 0) return static_cast<int>(GetLastError());
    if (written >= length) {  // the directory changed and grew in between: the answer is the size needed
      length = written;
      continue;
    }
    int bytes = WideCharToMultiByte(CP_UTF8, 0, wide.get(), static_cast<int>(written), nullptr, 0, nullptr, nullptr);
    if (bytes == 0 && written != 0) return static_cast<int>(GetLastError());
    out.resize(static_cast<size_t>(bytes));
    WideCharToMultiByte(CP_UTF8, 0, wide.get(), static_cast<int>(written), &out[0], bytes, nullptr, nullptr);
    return 0;
  }
}
#else
// getcwd(3) into a buffer that grows until the path fits: no truncation at PATH_MAX. Returns 0 or an errno.
int ReadCwd(std::string& out) {
  char small[4096];
  if (::getcwd(small, sizeof small) != nullptr) {
    out.assign(small);
    return 0;
  }
  // glibc reports a path longer than the kernel's page as ENAMETOOLONG from the syscall, then walks ".." itself
  // when given a larger buffer; everyone reports a too-small buffer as ERANGE.
  int error = errno;
  for (size_t size = 2 * sizeof small; error == ERANGE || error == ENAMETOOLONG; size *= 2) {
    if (size > (size_t{1} << 24)) return ENAMETOOLONG;
    std::unique_ptr<char[]> large(new char[size]);
    if (::getcwd(large.get(), size) != nullptr) {
      out.assign(large.get());
      return 0;
    }
    error = errno;
  }
  return error;
}
#endif

// A lock and a condition the watch thread sleeps on (the timed wait uses a steady clock).
class Signal {
 public:
  void Lock() { mutex_.lock(); }
  void Unlock() { mutex_.unlock(); }
  void Wait(uint32_t ms) {
    std::unique_lock<std::mutex> lock(mutex_, std::adopt_lock);
    condition_.wait_for(lock, std::chrono::milliseconds(ms));
    lock.release();  // still held: the caller unlocks
  }
  void Notify() { condition_.notify_all(); }

 private:
  std::mutex mutex_;
  std::condition_variable condition_;
};

// The thread of one environment's watch providers. It polls the cwd every `interval` ms and bumps the generation when
// the directory changed since its last reading, or when the generation itself moved since then: a chdir and a chdir
// back behind our back between two polls (A→B→A) is then still caught, because the caches may hold B under the
// generation of our chdir to B. Bumping after each of our own chdirs costs one extra miss per thread, never a stale read.
class Watcher {
 public:
  // `polls` counts the polls of the thread (its environment's, kept across watchers): read by watchPolls().
  Watcher(std::atomic<uint32_t>* generation, std::atomic<uint32_t>* polls) : generation_(generation), polls_(polls) {}

  // Takes the first reading, bumps (a change made before this watcher existed is not hidden from the caches either),
  // then starts the thread. Returns 0 or the error of the thread creation.
  int Start(uint32_t interval) {
    interval_ = interval;
    Poll(true);
#ifdef _WIN32
    thread_ = CreateThread(nullptr, 0, &Watcher::Main, this, 0, nullptr);
    if (thread_ == nullptr) return static_cast<int>(GetLastError());
    liveWatchThreads.fetch_add(1);
    return 0;
#else
    int error = pthread_create(&thread_, nullptr, &Watcher::Main, this);
    started_ = error == 0;
    if (started_) liveWatchThreads.fetch_add(1);
    return error;
#endif
  }

  void SetInterval(uint32_t interval) {
    signal_.Lock();
    interval_ = interval;
    signal_.Unlock();
    signal_.Notify();
  }

  ~Watcher() {
    signal_.Lock();
    stopping_ = true;
    signal_.Unlock();
    signal_.Notify();
#ifdef _WIN32
    if (thread_ != nullptr) {
      WaitForSingleObject(thread_, INFINITE);
      CloseHandle(thread_);
      liveWatchThreads.fetch_sub(1);
    }
#else
    if (started_) {
      pthread_join(thread_, nullptr);
      liveWatchThreads.fetch_sub(1);
    }
#endif
  }

 private:
#ifdef _WIN32
  static DWORD WINAPI Main(LPVOID self) {
    static_cast<Watcher*>(self)->Run();
    return 0;
  }
#else
  static void* Main(void* self) {
    static_cast<Watcher*>(self)->Run();
    return nullptr;
  }
#endif

  void Run() {
    signal_.Lock();
    while (!stopping_) {
      signal_.Wait(interval_);  // woken early by SetInterval or the destructor; an early poll is harmless
      if (stopping_) break;
      signal_.Unlock();
      Poll(false);
      polls_->fetch_add(1);
      signal_.Lock();
    }
    signal_.Unlock();
  }

  void Poll(bool first) {
    // The generation before the reading (trap 1): a chdir after this load moves the generation again.
    uint32_t before = generation_->load(std::memory_order_seq_cst);
    int error = ReadCwd(now_);
    if (error != 0) now_.clear();
    if (first || before != seenGeneration_ || error != seenError_ || now_ != seen_) {
      seen_.swap(now_);
      seenError_ = error;
      seenGeneration_ = generation_->fetch_add(1, std::memory_order_seq_cst) + 1;
    }
  }

  std::atomic<uint32_t>* const generation_;
  std::atomic<uint32_t>* const polls_;
  Signal signal_;
  uint32_t interval_ = 0;  // guarded by signal_
  bool stopping_ = false;  // guarded by signal_
  // Used by the thread only (and by Start before it exists): the last reading, its error, the generation after it.
  std::string seen_;
  std::string now_;
  int seenError_ = 0;
  uint32_t seenGeneration_ = 0;
#ifdef _WIN32
  HANDLE thread_ = nullptr;
#else
  pthread_t thread_{};
  bool started_ = false;
#endif
};

// Per-environment state (instance data), owned by the environment's cleanup hook. Every watch provider of this
// environment registers its interval here and shares one thread, which polls at the shortest interval registered.
struct EnvState {
  napi_env env = nullptr;
  std::unique_ptr<Watcher> watcher;
  napi_ref memory = nullptr;  // the generation's typed array, alive while the watcher points into it
  std::unordered_map<uint32_t, uint32_t> intervals;  // registration id → interval in ms
  uint32_t nextId = 1;
  std::atomic<uint32_t> polls{0};  // polls completed by this environment's watch threads, ever (watchPolls())

  uint32_t ShortestInterval() const {
    uint32_t shortest = UINT32_MAX;
    for (const auto& entry : intervals) shortest = entry.second < shortest ? entry.second : shortest;
    return shortest;
  }

  void StopWatching() {
    watcher.reset();  // joins the thread before the memory it writes may go
    if (memory != nullptr) napi_delete_reference(env, memory);
    memory = nullptr;
  }
};

EnvState* State(const Napi::CallbackInfo& info) {
  return info.Env().GetInstanceData<EnvState>();
}

void CleanUp(void* data) {
  auto* state = static_cast<EnvState*>(data);
  state->StopWatching();
  delete state;
}

#ifdef _WIN32
constexpr const char* THREAD_SYSCALL = "CreateThread";
std::string ThreadErrorName(int error) {
  return "Windows error " + std::to_string(error);
}
#else
constexpr const char* THREAD_SYSCALL = "pthread_create";
std::string ThreadErrorName(int error) {
  return error == EAGAIN ? "EAGAIN" : error == ENOMEM ? "ENOMEM" : error == EPERM ? "EPERM" : "EINVAL";
}
#endif

// The cwd, or the error number as a number: JS builds the error (the runtime's wording, one place for all strategies).
Napi::Value Getcwd(const Napi::CallbackInfo& info) {
  std::string path;
  int error = ReadCwd(path);
  if (error != 0) return Napi::Number::New(info.Env(), error);
  return Napi::String::New(info.Env(), path);
}

// watch(generation: Uint32Array over the shared buffer, intervalMs) → registration id. Starts this environment's
// thread if it has none; throws ERR_CWDKIT_WATCH_THREAD when the OS refuses a thread.
Napi::Value Watch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  EnvState* state = State(info);
  auto interval = info[1].As<Napi::Number>().Uint32Value();
  if (!state->watcher) {
    napi_typedarray_type type;
    size_t length = 0;
    void* data = nullptr;
    if (napi_get_typedarray_info(env, info[0], &type, &length, &data, nullptr, nullptr) != napi_ok ||
        type != napi_uint32_array || length < 1 || data == nullptr ||
        napi_create_reference(env, info[0], 1, &state->memory) != napi_ok) {
      Napi::TypeError::New(env, "@cwdkit/native: watch() needs the shared generation").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    state->watcher = std::make_unique<Watcher>(static_cast<std::atomic<uint32_t>*>(data), &state->polls);
    int error = state->watcher->Start(interval);
    if (error != 0) {
      state->StopWatching();
      std::string name = ThreadErrorName(error);
      Napi::Error failure = Napi::Error::New(
          env, "@cwdkit/native: could not start the watch thread (" + name +
                   "): the process or user reached its thread limit; use mode 'cached' and call invalidate(), or raise "
                   "the limit");
      failure.Set("code", "ERR_CWDKIT_WATCH_THREAD");
      failure.Set("syscall", THREAD_SYSCALL);
      failure.ThrowAsJavaScriptException();
      return env.Undefined();
    }
  }
  uint32_t id = state->nextId++;
  state->intervals.emplace(id, interval);
  if (state->intervals.size() > 1) state->watcher->SetInterval(state->ShortestInterval());
  return Napi::Number::New(env, id);
}

// Drops a registration; the thread stops with the last one. An unknown id is ignored.
void Unwatch(const Napi::CallbackInfo& info) {
  EnvState* state = State(info);
  if (state->intervals.erase(info[0].As<Napi::Number>().Uint32Value()) == 0) return;
  if (state->intervals.empty()) {
    state->StopWatching();
  } else {
    state->watcher->SetInterval(state->ShortestInterval());
  }
}

#ifdef __linux__
// A thread's own working directory (@cwdkit/thread-cwd's kernel mode). On Linux a thread's cwd, root and umask live
// in its fs_struct, which threads share because pthread_create clones with CLONE_FS; unshare(CLONE_FS) gives the
// calling thread a copy of its own, and chdir(2)/fchdir(2) then move that thread only. Every answer is 0 or an errno:
// JS words the errors.

// Whether unshare(CLONE_FS) is allowed here: tried on a thread of its own, made for it and joined, so the calling
// thread keeps its fs_struct. Seccomp (Docker's default profile, CRI-O, Kubernetes' RuntimeDefault) refuses it with
// EPERM. The new thread inherits the calling thread's filter. Process-wide, so asked once (trap 6: atomic).
std::atomic<int> probed{-1};

void* Probe(void* result) {
  *static_cast<int*>(result) = ::unshare(CLONE_FS) == 0 ? 0 : errno;
  return nullptr;
}

napi_value ProbeUnshare(napi_env env, napi_callback_info) {
  int answer = probed.load();
  if (answer < 0) {
    int result = 0;
    pthread_t thread;
    int error = pthread_create(&thread, nullptr, &Probe, &result);
    if (error == 0) {
      pthread_join(thread, nullptr);
      answer = result;
      probed.store(answer);
    } else {
      answer = error;  // no thread to try it on (a thread limit): not kept, asked again next time
    }
  }
  napi_value value;
  napi_create_int32(env, answer, &value);
  return value;
}

// libuv's threadpool is made once per process, by the thread that first queues work (uv__work_submit's uv_once,
// which creates every pool thread before it returns), and those threads share that thread's fs_struct. Queued here,
// before this thread unshares, a no-op work item makes sure the pool exists and shares the process's, not this
// thread's (otherwise every thread's async relative calls would run in this thread's directory: trap 16).
struct PoolStart {
  napi_async_work work = nullptr;
};

void PoolStartExecute(napi_env, void*) {}

void PoolStartComplete(napi_env env, napi_status, void* data) {
  auto* start = static_cast<PoolStart*>(data);
  napi_delete_async_work(env, start->work);
  delete start;
}

// The process's umask as /proc shows it (the `Umask:` line of the thread group leader's status, Linux 4.7+), read
// without changing it; -1 where it cannot be read.
int ProcessUmask() {
  int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[4096];
  ssize_t size = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (size <= 0) return -1;
  text[size] = '\0';
  const char* line = std::strstr(text, "\nUmask:\t");
  if (line == nullptr) return -1;
  return static_cast<int>(std::strtol(line + 8, nullptr, 8));
}

// unshare(CLONE_FS) copies the umask of that instant, for the thread's life. Node's process.umask() read sets it to 0
// and back (on any thread, in the fs_struct they share), under a process-wide mutex of Node's own, exported by every
// Node 20-26 binary: held while the copy is taken, no Node thread is in that moment. A preempted reader can hold the
// 0 for a whole time slice, so without the mutex (another runtime) nothing short of it is sure.
pthread_mutex_t* NodeUmaskMutex() {
  static auto* found = static_cast<pthread_mutex_t*>(dlsym(RTLD_DEFAULT, "_ZN4node11per_process11umask_mutexE"));
  return found;
}

// This thread's umask, read on a thread whose fs_struct is its own (no other thread sees the 0 in between).
mode_t CurrentUmask() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// Without Node's mutex, best effort: the process's umask, a 0 read again until it is not (a read in that moment shows
// 0 too; a real umask of 0 shows 0 every time). -1 where /proc cannot be read.
int SettledProcessUmask() {
  int process = ProcessUmask();
  for (int tries = 0; process == 0 && tries < 16; tries++) {
    ::usleep(10 * (tries + 1));  // spaced unevenly, so that no loop of the reader's keeps reading in its moment
    process = ProcessUmask();
  }
  return process;
}

// umask(mask?) -> the calling thread's umask before (its fs_struct is its own: no other thread sees the change), set
// to `mask`, or without one to the process's now (a worker it starts shares its fs_struct at first, so takes that).
// A negative answer is an errno: the process's could not be read.
napi_value Umask(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  int32_t mask = -1;
  napi_valuetype type = napi_undefined;
  if (argc >= 1) napi_typeof(env, argv[0], &type);
  if (type != napi_undefined && (napi_get_value_int32(env, argv[0], &mask) != napi_ok || mask < 0 || mask > 0777)) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", "umask(mask?: number from 0 to 0o777)");
    return nullptr;
  }
  if (type == napi_undefined) {
    pthread_mutex_t* umaskMutex = NodeUmaskMutex();
    if (umaskMutex != nullptr) pthread_mutex_lock(umaskMutex);
    mask = umaskMutex != nullptr ? ProcessUmask() : SettledProcessUmask();
    if (umaskMutex != nullptr) pthread_mutex_unlock(umaskMutex);
  }
  napi_value value;
  napi_create_int32(env, mask >= 0 ? static_cast<int32_t>(::umask(static_cast<mode_t>(mask))) : -ENOENT, &value);
  return value;
}

// Threads native code starts (trap 18). pthread_create clones with CLONE_FS: a thread started from a thread whose
// fs_struct is its own would share that copy, and an addon's pool (Rust's rayon or tokio, libvips) started by a
// kernel-mode worker would resolve every thread's relative paths, the main thread's too, in that worker's directory.
// So the pthread_create of every other library loaded (not Node's executable: workers.ts moves a worker's parent for
// Node's own Worker threads; not libc, ld.so or this addon) is routed here through its GOT: called from such a thread,
// the thread is made by the starter, a thread that shares the process's fs_struct, and takes on what it would have
// inherited from the caller (signal mask, name, CPU affinity, nice, scheduling). Every thread other than a worker's
// own JS thread then shares the process's cwd, as libuv's pool does. A library that native code loads itself (a
// plugin: dlopen is not routed, since dlopen searches the caller's RUNPATH) is routed at the next routing (a
// kernel-mode worker's chdir or process.dlopen).
thread_local bool ownFs = false;  // this thread's fs_struct is its own (unshareFs succeeded here)

// What a thread confines itself with (no_new_privs, a seccomp filter) is inherited by the threads it makes: a thread
// made by the starter would escape it. So a caller confined otherwise than the starter makes its thread itself.
struct Confinement {
  int noNewPrivs;
  int seccomp;
  int filters;  // Seccomp_filters in /proc/thread-self/status (Linux 5.9+), -1 where not shown

  static Confinement OfThisThread() {
    Confinement here{::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0), -1};
    if (here.seccomp == 0) return here;
    int fd = ::open("/proc/thread-self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return here;
    char text[4096];
    ssize_t size = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (size <= 0) return here;
    text[size] = '\0';
    const char* line = std::strstr(text, "\nSeccomp_filters:\t");
    if (line != nullptr) here.filters = static_cast<int>(std::strtol(line + 18, nullptr, 10));
    return here;
  }
  bool operator==(const Confinement& other) const {
    return noNewPrivs == other.noNewPrivs && seccomp == other.seccomp && filters == other.filters &&
           (seccomp == 0 || filters >= 0);  // a filter that cannot be counted is not known to be the same
  }
};

// What a new thread inherits from its maker and the starter would give it instead: applied on the new thread, before
// the caller's routine runs.
struct Inherited {
  void* (*routine)(void*);
  void* arg;
  cpu_set_t cpus;
  bool cpusKnown;
  int nice;
  int policy;
  sched_param param;
  bool scheduling;  // the attributes inherit the scheduling (no attributes, or PTHREAD_INHERIT_SCHED)
};

void* RunInherited(void* data) {
  auto* inherited = static_cast<Inherited*>(data);
  pid_t self = static_cast<pid_t>(::syscall(SYS_gettid));
  if (inherited->cpusKnown) sched_setaffinity(0, sizeof inherited->cpus, &inherited->cpus);
  // Best effort: a lower nice than the starter's needs RLIMIT_NICE or CAP_SYS_NICE (README).
  if (::getpriority(PRIO_PROCESS, static_cast<id_t>(self)) != inherited->nice) {
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(self), inherited->nice);
  }
  if (inherited->scheduling) pthread_setschedparam(pthread_self(), inherited->policy, &inherited->param);
  void* (*routine)(void*) = inherited->routine;
  void* arg = inherited->arg;
  delete inherited;
  return routine(arg);
}

struct ThreadStart {
  pthread_t* thread;
  const pthread_attr_t* attr;
  Inherited* inherited;
  sigset_t mask;
  char name[16];
  int result = 0;
  bool done = false;
};

// Never destroyed: the starter waits on them until the process ends, and a condition variable's destructor (at exit,
// or when Node unloads this addon with a worker) would wait for it forever.
struct Starts {
  std::mutex mutex;
  std::condition_variable asked, done;
  ThreadStart* pending = nullptr;
  std::atomic<pid_t> starterPid{0};  // the process the starter runs in: after a fork, the child has none
  Confinement confinement{};         // the starter's, read once it runs
};
Starts& starts = *new Starts();

void* Starter(void*) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, nullptr);  // no signal of the process's lands here
  std::unique_lock<std::mutex> lock(starts.mutex);
  starts.confinement = Confinement::OfThisThread();
  starts.done.notify_all();
  for (;;) {
    starts.asked.wait(lock, [] { return starts.pending != nullptr; });
    ThreadStart* start = starts.pending;
    pthread_sigmask(SIG_SETMASK, &start->mask, nullptr);  // a new thread inherits its maker's mask and name
    prctl(PR_SET_NAME, start->name);
    start->result = pthread_create(start->thread, start->attr, &RunInherited, start->inherited);
    pthread_sigmask(SIG_SETMASK, &all, nullptr);
    start->done = true;
    starts.pending = nullptr;
    starts.done.notify_all();
  }
  return nullptr;
}

// Started once per process, by a thread that still shares the process's fs_struct: 0 or an errno.
int StartStarter() {
  std::unique_lock<std::mutex> lock(starts.mutex);
  if (starts.starterPid.load() == ::getpid()) return 0;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_t thread;
  starts.confinement.seccomp = -1;
  int error = pthread_create(&thread, &attr, &Starter, nullptr);
  pthread_attr_destroy(&attr);
  if (error != 0) return error;
  starts.done.wait(lock, [] { return starts.confinement.seccomp >= 0; });  // its confinement read
  starts.starterPid.store(::getpid());
  return 0;
}

// Whether the attributes leave the new thread the scheduling of its maker.
bool InheritsScheduling(const pthread_attr_t* attr) {
  int inherit = PTHREAD_INHERIT_SCHED;
  return attr == nullptr || (pthread_attr_getinheritsched(attr, &inherit) == 0 && inherit == PTHREAD_INHERIT_SCHED);
}

// What a routed library calls for pthread_create.
extern "C" int CwdkitThreadCreate(pthread_t* thread, const pthread_attr_t* attr, void* (*routine)(void*), void* arg) {
  // A forked child has no starter (its mutex may even have been held at the fork), and its copy is its process's.
  if (!ownFs || starts.starterPid.load() != ::getpid() || !(Confinement::OfThisThread() == starts.confinement)) {
    return pthread_create(thread, attr, routine, arg);
  }
  auto* inherited = new (std::nothrow) Inherited();
  if (inherited == nullptr) return EAGAIN;
  inherited->routine = routine;
  inherited->arg = arg;
  inherited->cpusKnown = sched_getaffinity(0, sizeof inherited->cpus, &inherited->cpus) == 0;
  if (attr != nullptr) {  // affinity given in the attributes wins, as pthread_create applies it
    cpu_set_t given;
    CPU_ZERO(&given);
    if (pthread_attr_getaffinity_np(attr, sizeof given, &given) == 0 && CPU_COUNT(&given) < CPU_SETSIZE) {
      inherited->cpusKnown = false;
    }
  }
  inherited->nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
  inherited->scheduling =
      InheritsScheduling(attr) && pthread_getschedparam(pthread_self(), &inherited->policy, &inherited->param) == 0;
  ThreadStart start;
  start.thread = thread;
  start.attr = attr;
  start.inherited = inherited;
  pthread_sigmask(SIG_BLOCK, nullptr, &start.mask);
  std::memset(start.name, 0, sizeof start.name);
  prctl(PR_GET_NAME, start.name);
  std::unique_lock<std::mutex> lock(starts.mutex);
  starts.done.wait(lock, [] { return starts.pending == nullptr; });
  starts.pending = &start;
  starts.asked.notify_one();
  starts.done.wait(lock, [&start] { return start.done; });
  if (start.result != 0) delete inherited;  // no thread took it
  return start.result;
}

// Whether the executable's own thread starts are routed too: asked by unshareFs(true) where the runtime starts threads
// on demand from whichever thread needs one (Bun's work pool grows from the thread that schedules; its Worker threads
// and JavaScriptCore's helpers start from the worker's thread), which no Worker cover can bracket.
std::atomic<bool> routeExecutable{false};

// The libraries never routed: their pthread_create is the thread's own business (the kernel's, the runtime's).
bool Unrouted(const char* name) {
  if (name == nullptr || name[0] == '\0') return !routeExecutable.load();  // the executable
  const char* slash = std::strrchr(name, '/');
  const char* base = slash != nullptr ? slash + 1 : name;
  for (const char* prefix : {"linux-vdso", "linux-gate", "ld-linux", "ld-musl", "libc.so", "libpthread.so"}) {
    if (std::strncmp(base, prefix, std::strlen(prefix)) == 0) return true;
  }
  return false;
}

std::mutex& routeMutex = *new std::mutex();  // one writer of GOT slots at a time
unsigned long long routedAdds = 0, routedSubs = 0;
// This addon's load address, found when it loads: dladdr takes a loader lock, which a dlopen on another thread may
// hold while it waits for routeMutex.
std::atomic<ElfW(Addr)> selfBase{0};

// The protection of the page that holds `at`: its segment's, read-only inside PT_GNU_RELRO (as ld.so left it).
int Protection(const struct dl_phdr_info* info, ElfW(Addr) at, long page) {
  int protection = -1;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    ElfW(Addr) start = info->dlpi_addr + header.p_vaddr;
    if (header.p_type == PT_LOAD && at >= start && at < start + header.p_memsz) {
      protection = ((header.p_flags & PF_R) ? PROT_READ : 0) | ((header.p_flags & PF_W) ? PROT_WRITE : 0) |
                   ((header.p_flags & PF_X) ? PROT_EXEC : 0);
    }
  }
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type != PT_GNU_RELRO) continue;
    // ld.so makes it read-only in whole pages: from its start's page to its end rounded down.
    ElfW(Addr) start = (info->dlpi_addr + header.p_vaddr) & ~static_cast<ElfW(Addr)>(page - 1);
    ElfW(Addr) end = (info->dlpi_addr + header.p_vaddr + header.p_memsz) & ~static_cast<ElfW(Addr)>(page - 1);
    if (at >= start && at < end) protection = PROT_READ;
  }
  return protection;
}

// Points every GOT slot of one library's relocations that names pthread_create at CwdkitThreadCreate. Called
// under dl_iterate_phdr's loader lock: nothing here may take another (no dladdr, no dlsym).
int RouteLibrary(struct dl_phdr_info* info, size_t, void* data) {
  auto* routed = static_cast<int*>(data);
  if (Unrouted(info->dlpi_name) || info->dlpi_addr == selfBase) return 0;
  const long page = ::sysconf(_SC_PAGESIZE);
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + header.p_vaddr);
  }
  if (dynamic == nullptr) return 0;
  // glibc relocates these addresses in place; musl leaves them relative to the load address.
  auto address = [info](ElfW(Addr) value) { return value < info->dlpi_addr ? value + info->dlpi_addr : value; };
  const ElfW(Sym)* symbols = nullptr;
  const char* strings = nullptr;
  const ElfW(Rela)* tables[2] = {nullptr, nullptr};
  size_t sizes[2] = {0, 0};
  bool rela = true;
  for (const ElfW(Dyn)* entry = dynamic; entry->d_tag != DT_NULL; entry++) {
    switch (entry->d_tag) {
      case DT_SYMTAB: symbols = reinterpret_cast<const ElfW(Sym)*>(address(entry->d_un.d_ptr)); break;
      case DT_STRTAB: strings = reinterpret_cast<const char*>(address(entry->d_un.d_ptr)); break;
      case DT_JMPREL: tables[0] = reinterpret_cast<const ElfW(Rela)*>(address(entry->d_un.d_ptr)); break;
      case DT_PLTRELSZ: sizes[0] = entry->d_un.d_val; break;
      case DT_RELA: tables[1] = reinterpret_cast<const ElfW(Rela)*>(address(entry->d_un.d_ptr)); break;
      case DT_RELASZ: sizes[1] = entry->d_un.d_val; break;
      case DT_PLTREL: rela = entry->d_un.d_val == DT_RELA; break;
      default: break;
    }
  }
  if (symbols == nullptr || strings == nullptr || !rela) return 0;  // x86-64 and arm64 use RELA only
  for (int t = 0; t < 2; t++) {
    if (tables[t] == nullptr) continue;
    for (size_t i = 0; i < sizes[t] / sizeof(ElfW(Rela)); i++) {
      const ElfW(Rela)& relocation = tables[t][i];
      auto symbol = sizeof(ElfW(Addr)) == 8 ? ELF64_R_SYM(relocation.r_info) : ELF32_R_SYM(relocation.r_info);
      if (symbol == 0 || relocation.r_addend != 0) continue;  // an address plus an offset is not a call target
      if (std::strcmp(strings + symbols[symbol].st_name, "pthread_create") != 0) continue;
      auto* target = reinterpret_cast<void*>(&CwdkitThreadCreate);
      auto** slot = reinterpret_cast<void**>(info->dlpi_addr + relocation.r_offset);
      // A weak reference left unresolved (0) says "no threads" to its library (libstdc++'s __gthread_active_p).
      if (*slot == target || *slot == nullptr) continue;
      auto at = reinterpret_cast<ElfW(Addr)>(slot);
      int protection = Protection(info, at, page);
      if (protection < 0) continue;  // not in a loaded segment: not ours to write
      void* pageStart = reinterpret_cast<void*>(at & ~static_cast<ElfW(Addr)>(page - 1));
      bool writable = (protection & PROT_WRITE) != 0;
      if (!writable && ::mprotect(pageStart, page, protection | PROT_WRITE) != 0) continue;
      __atomic_store_n(slot, target, __ATOMIC_RELEASE);
      if (!writable) ::mprotect(pageStart, page, protection);
      (*routed)++;
    }
  }
  return 0;
}

// Routes the libraries loaded since the last call (dl_iterate_phdr's load counters): the number of slots routed now.
int RouteThreadStarts() {
  if (selfBase.load() == 0) return 0;
  std::lock_guard<std::mutex> lock(routeMutex);
  unsigned long long counts[2] = {0, 0};  // libraries loaded and unloaded since the process started
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, size_t size, void* data) {
        auto* counts = static_cast<unsigned long long*>(data);
        if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
          counts[0] = info->dlpi_adds;
          counts[1] = info->dlpi_subs;
        }
        return 1;
      },
      counts);
  const unsigned long long adds = counts[0], subs = counts[1];
  if (adds != 0 && adds == routedAdds && subs == routedSubs) return 0;
  int routed = 0;
  dl_iterate_phdr(&RouteLibrary, &routed);
  routedAdds = adds;
  routedSubs = subs;
  return routed;
}

// Keeps this addon mapped for the process's life (routed libraries call into it, and a worker's environment that
// loaded it may go away), and finds its load address. Called before a thread's first unshare, out of any loader lock.
void FindSelf() {
  static std::once_flag found;
  std::call_once(found, [] {
    Dl_info self;
    if (dladdr(reinterpret_cast<void*>(&CwdkitThreadCreate), &self) == 0 || self.dli_fname == nullptr) return;
    dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    selfBase.store(reinterpret_cast<ElfW(Addr)>(self.dli_fbase));
  });
}

// routeThreadStarts() → the number of GOT slots routed now: for a thread whose fs_struct is its own, after it loads a
// library (process.dlopen), so that the threads that library starts later share the process's fs_struct.
napi_value RouteThreadStartsJs(napi_env env, napi_callback_info) {
  napi_value value;
  napi_create_int32(env, ownFs ? RouteThreadStarts() : 0, &value);
  return value;
}

// unshareFs(executable?) → 0 or errno: the pool started, then this thread's fs_struct made its own. Once per thread is
// enough (a second call copies the copy); the caller keeps track. With `true`, the executable's thread starts are
// routed from now on too (routeExecutable).
napi_value UnshareFs(napi_env env, napi_callback_info info) {
  napi_value value;
  size_t argc = 1;
  napi_value argv[1];
  bool executable = false;
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc >= 1) napi_get_value_bool(env, argv[0], &executable);
  if (executable && !routeExecutable.exchange(true)) {
    std::lock_guard<std::mutex> lock(routeMutex);
    routedAdds = 0;  // the libraries already routed are walked again, the executable with them
    routedSubs = 0;
  }
  auto* start = new PoolStart();
  napi_value name;
  napi_create_string_utf8(env, "cwdkit.poolStart", NAPI_AUTO_LENGTH, &name);
  if (napi_create_async_work(env, nullptr, name, PoolStartExecute, PoolStartComplete, start, &start->work) != napi_ok ||
      napi_queue_async_work(env, start->work) != napi_ok) {
    if (start->work != nullptr) napi_delete_async_work(env, start->work);
    delete start;
    napi_create_int32(env, EAGAIN, &value);  // the pool could not be started first: no unshare
    return value;
  }
  FindSelf();
  int starter = StartStarter();  // made before the copy, so that it shares the process's fs_struct
  if (starter != 0) {
    napi_create_int32(env, starter, &value);  // no thread for what native code starts later: no unshare
    return value;
  }
  pthread_mutex_t* umaskMutex = NodeUmaskMutex();
  if (umaskMutex != nullptr) pthread_mutex_lock(umaskMutex);
  int error = ::unshare(CLONE_FS) == 0 ? 0 : errno;
  if (umaskMutex != nullptr) pthread_mutex_unlock(umaskMutex);
  if (umaskMutex == nullptr && error == 0 && CurrentUmask() == 0) {
    int process = SettledProcessUmask();
    if (process > 0) ::umask(static_cast<mode_t>(process));
  }
  if (error == 0) {
    ownFs = true;
    RouteThreadStarts();
  }
  napi_create_int32(env, error, &value);
  return value;
}

#endif

#if defined(__linux__) || defined(__APPLE__)
// A call of (fd) → 0 or errno from JS: its one argument a number, else a TypeError that names `usage`.
napi_value CallWithFd(napi_env env, napi_callback_info info, const char* usage, int (*call)(int)) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  napi_value value;
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 1 || napi_get_value_int32(env, argv[0], &fd) != napi_ok) {
    napi_throw_type_error(env, "ERR_INVALID_ARG_TYPE", usage);
    return nullptr;
  }
  napi_create_int32(env, call(fd) == 0 ? 0 : errno, &value);
  return value;
}
#endif

#ifdef __linux__
// fchdir(fd) → 0 or errno: this thread's cwd (the process's too, unless unshareFs() ran on this thread).
napi_value Fchdir(napi_env env, napi_callback_info info) {
  return CallWithFd(env, info, "fchdir(fd: number)", ::fchdir);
}
#endif

#ifdef __APPLE__
// macOS keeps an optional cwd per thread (XNU's uthread uu_cdir): pthread_fchdir_np(fd) sets the calling thread's,
// pthread_fchdir_np(-1) drops it, and the thread follows the process's cwd again. libSystem has exported it since
// 10.12 (below the deployment target, 10.15); the SDK's headers do not declare it, so this does, as Firefox and QEMU
// do. Compiled on macOS by the workflow and by check:darwin; not yet run anywhere, so thread-cwd does not call it
// (ARCHITECTURE.md, "macOS").
extern "C" int pthread_fchdir_np(int fd);

// threadFchdir(fd) → 0 or errno: the calling thread's own cwd, or with -1 the process's again.
napi_value ThreadFchdir(napi_env env, napi_callback_info info) {
  return CallWithFd(env, info, "threadFchdir(fd: number)", pthread_fchdir_np);
}
#endif

// How many watch threads this addon file runs in the process (every environment), counted by the addon itself.
Napi::Value WatchThreads(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), liveWatchThreads.load());
}

// How many polls this environment's watch threads have completed since the addon loaded in it.
Napi::Value WatchPolls(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), State(info)->polls.load());
}

// Plain Node-API: on the hot path of the benchmarks, node-addon-api's CallbackInfo would double the cost.
napi_value Noop(napi_env, napi_callback_info) {
  return nullptr;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  auto* state = new EnvState();
  state->env = env;
  // Freed by CleanUp, never by a finalizer: one owner.
  if (napi_set_instance_data(env, state, nullptr, nullptr) != napi_ok ||
      napi_add_env_cleanup_hook(env, CleanUp, state) != napi_ok) {
    napi_set_instance_data(env, nullptr, nullptr, nullptr);
    delete state;
    // The environment is going away (a worker terminated while it loads this addon): node-addon-api's throw would
    // abort the whole process when the throw itself fails, so a plain one, whose failure is left alone.
    napi_throw_error(env, "ERR_CWDKIT_NATIVE_UNAVAILABLE", "cwdkit: could not register an environment cleanup hook");
    return exports;
  }
  exports.Set("getcwd", Napi::Function::New<Getcwd>(env, "getcwd"));
  exports.Set("watch", Napi::Function::New<Watch>(env, "watch"));
  exports.Set("unwatch", Napi::Function::New<Unwatch>(env, "unwatch"));
  exports.Set("watchThreads", Napi::Function::New<WatchThreads>(env, "watchThreads"));
  exports.Set("watchPolls", Napi::Function::New<WatchPolls>(env, "watchPolls"));
  napi_value noop;
  napi_create_function(env, "noop", NAPI_AUTO_LENGTH, Noop, nullptr, &noop);
  exports.Set("noop", noop);
#ifdef __linux__
  const napi_property_descriptor kernel[] = {
      {"probeUnshare", nullptr, ProbeUnshare, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"unshareFs", nullptr, UnshareFs, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"umask", nullptr, Umask, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"fchdir", nullptr, Fchdir, nullptr, nullptr, nullptr, napi_default_method, nullptr},
      {"routeThreadStarts", nullptr, RouteThreadStartsJs, nullptr, nullptr, nullptr, napi_default_method, nullptr},
  };
  napi_define_properties(env, exports, sizeof kernel / sizeof kernel[0], kernel);
#endif
#ifdef __APPLE__
  const napi_property_descriptor thread[] = {
      {"threadFchdir", nullptr, ThreadFchdir, nullptr, nullptr, nullptr, napi_default_method, nullptr},
  };
  napi_define_properties(env, exports, 1, thread);
#endif
  return exports;
}

}  // namespace

NODE_API_MODULE(cwdkit, Init)
