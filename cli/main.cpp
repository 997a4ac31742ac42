#include "cli/command.hpp"

int main(int argc, char** argv) { return stickslip::cli::dispatch(argc, argv); }
