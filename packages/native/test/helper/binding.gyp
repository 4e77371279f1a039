{
  "targets": [
    {
      "target_name": "chdir_helper",
      "sources": ["chdir-helper.cc"],
      "defines": ["NAPI_VERSION=8"]
    }
  ]
}
