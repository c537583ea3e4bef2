// SPDX-License-Identifier: Apache-2.0
// fmt's compiled part, built once here. Debian's libfmt-dev has no static libfmt.a, and the
// greslint binary is linked statically (CMakeLists.txt). Compiling fmt header-only instead
// put fmt's whole implementation into each of the ~130 files that format: 4.8 s to compile
// a rule file instead of 1.6 s (g++ 12 -O3), half of every build (docs/robustness.md §5).
#include <fmt/format-inl.h>

// format.h declares the locale helpers `extern template` when fmt is not header-only, so their
// one instantiation for `char` lives here (greslint formats no wide strings).
FMT_BEGIN_NAMESPACE
namespace detail {
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl<char>(locale_ref) -> char;
}  // namespace detail
FMT_END_NAMESPACE
