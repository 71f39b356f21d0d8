// Advanced indexing (issue #8 item 4): index and index_put_ (see AdvancedIndex.cc). Registered from
// addon.cc's Init with one line.
#pragma once
#include <napi.h>

namespace glasstorch {

void InitAdvancedIndex(Napi::Env env, Napi::Object exports);

}  // namespace glasstorch
