#pragma once
/// \file The files a command writes: checked before the work starts, written whole or not at all.

#include <string>

namespace stickslip::cli {

/// Writes `text` to `path` through a temporary file in the same directory renamed over it
/// at the end, so that `path` is never left half-written. A failure is a
/// std::filesystem::filesystem_error naming the file and the reason.
void writeFileAtomically(const std::string& path, const std::string& text);
/// Throws std::invalid_argument naming `option` when `path` is empty, a directory or not a
/// regular file, exists and !force, or when its directory cannot be written or its name is too
/// long there (with the temporary file's suffix).
void checkOutputPath(const std::string& option, const std::string& path, bool force);

}  // namespace stickslip::cli
