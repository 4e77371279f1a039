{
  "targets": [
    {
      "target_name": "cwdkit",
      "sources": ["src/cwdkit.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags_cc": ["-std=c++17"],
      "xcode_settings": { "CLANG_CXX_LANGUAGE_STANDARD": "c++17", "MACOSX_DEPLOYMENT_TARGET": "10.15" },
      "conditions": [["OS=='linux'", { "libraries": ["-ldl"] }]]
    }
  ]
}
