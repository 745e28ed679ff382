#include "cli/parse_errors.h"

#include <fmt/format.h>

#include <vector>

#include "common/strings.h"

namespace trainbench::cli {
namespace {

std::string CommandList(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : ", ") + names[i];
  return text;
}

}  // namespace

std::string ParseErrorText(CLI::App& app, const CLI::ParseError& error, int argc,
                           const char* const* argv) {
  const std::string what = error.what();
  // "Could not convert: --confirm = abc": a number option given something else.
  constexpr std::string_view kConvert = "Could not convert: ";
  if (dynamic_cast<const CLI::ConversionError*>(&error) && what.rfind(kConvert, 0) == 0) {
    const std::string rest = what.substr(kConvert.size());
    const size_t eq = rest.find(" = ");
    if (eq != std::string::npos)
      return fmt::format("{} '{}': expected a number", rest.substr(0, eq), rest.substr(eq + 3));
  }
  // No command was recognised: the first word is a typo, or there is none.
  if (dynamic_cast<const CLI::RequiredError*>(&error) && app.get_subcommands().empty()) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (argc > 1 && argv[1][0] != '-') {
      std::string text = fmt::format("unknown command '{}'", argv[1]);
      if (const std::string nearest = NearestMatch(argv[1], names); !nearest.empty())
        text += fmt::format(" (did you mean '{}'?)", nearest);
      return text + "; the commands: " + CommandList(names);
    }
    return "give a command: " + CommandList(names);
  }
  return what;
}

}  // namespace trainbench::cli
