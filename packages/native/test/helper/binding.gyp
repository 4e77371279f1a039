{
  "targets": [
    {
      "target_name": "chdir_helper",
      "sources": ["chdir-helper.cc"],
      "defines": ["NAPI_VERSION=8"]
    },
    {
      "target_name": "threads_helper",
      "sources": ["threads-helper.cc"],
      "defines": ["NAPI_VERSION=8"],
      "cflags_cc": ["-std=c++17"]
    }
  ]
}
