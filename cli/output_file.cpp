#include "cli/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace stickslip::cli {
namespace {

/// The longest ".tmp-PID" writeFileAtomically appends (a pid has at most 10 digits).
constexpr std::size_t kTemporarySuffix = 15;

}  // namespace

void checkOutputPath(const std::string& option, const std::string& path, bool force) {
  namespace fs = std::filesystem;
  if (path.empty()) throw std::invalid_argument(option + ": expected a file name, got ''");
  if (fs::is_directory(path)) throw std::invalid_argument(option + " " + path + ": is a directory");
  // A device or a pipe would be replaced by the file renamed over it (writeFileAtomically).
  if (fs::exists(path) && !fs::is_regular_file(path))
    throw std::invalid_argument(option + " " + path + ": is not a regular file");
  if (fs::exists(path) && !force)
    throw std::invalid_argument(option + " " + path +
                                ": file exists; pass --force to overwrite it");
  const fs::path dir = fs::absolute(path).parent_path();
  if (!fs::is_directory(dir) || ::access(dir.c_str(), W_OK) != 0)
    throw std::invalid_argument(option + " " + path + ": cannot write in " + dir.string());
  // Room for writeFileAtomically's ".tmp-PID": else the name fails only once the work is done.
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const std::size_t name = fs::path(path).filename().string().size();
  if (name_max > 0 && name + kTemporarySuffix > std::size_t(name_max))
    throw std::invalid_argument(option + " " + path + ": the name has " + std::to_string(name) + " bytes, at most " +
                                std::to_string(name_max - long(kTemporarySuffix)) + " here");
}

void writeFileAtomically(const std::string& path, const std::string& text) {
  if (std::filesystem::exists(path) && !std::filesystem::is_regular_file(path))
    throw std::invalid_argument(path + ": is not a regular file");
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    errno = 0;
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    if (!f) {
      const std::error_code why(errno != 0 ? errno : EIO, std::generic_category());
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);  // may be what failed (a directory of that name)
      throw std::filesystem::filesystem_error("cannot write " + tmp, path, why);
    }
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace stickslip::cli
