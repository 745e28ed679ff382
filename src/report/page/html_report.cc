#include "report/page/html_report.h"

#include <fmt/format.h>

#include "report/page/page_assets.h"

namespace trainbench::report {
namespace {

// Text inside <script> ends at the first "</script": JSON with every '<' written as \u003c
// (the same string to a JSON parser) can never end it early.
std::string ScriptSafeJson(const nlohmann::json& j) {
  const std::string text = j.dump();
  std::string out;
  out.reserve(text.size());
  for (char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

std::string HtmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A library's source inside <script>: "</script" in it (none in Chart.js 3.9, but another
// version could have one in a string) is written "<\/script", the same in JavaScript.
std::string ScriptSafeSource(const std::string& js) {
  std::string out = js;
  for (size_t at = 0; (at = out.find("</", at)) != std::string::npos; at += 3) {
    if (out.compare(at + 2, 6, "script") == 0 || out.compare(at + 2, 6, "SCRIPT") == 0)
      out.replace(at, 2, "<\\/");
  }
  return out;
}

}  // namespace

nlohmann::json ReportModel(const std::vector<RunResults>& runs) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : runs) {
    nlohmann::json series = nullptr;
    if (r.has_timeseries) {
      series = nlohmann::json::object();
      for (const auto& [column, values] : r.series) series[column] = values;
      series["phase"] = r.phases;
    }
    list.push_back({{"name", r.name},
                    {"kind", r.kind},
                    {"folder", r.folder},
                    {"summary", r.summary},
                    {"config_yaml", r.config_yaml},
                    {"timeseries_rank", r.timeseries_rank},
                    {"timeseries", series}});
  }
  return {{"generated_by", std::string("trainbench ") + TRAINBENCH_VERSION}, {"runs", list}};
}

std::string RenderReportHtml(const nlohmann::json& model, const std::string& chart_js) {
  const auto& runs = model.at("runs");
  const std::string title =
      runs.size() == 1 ? fmt::format("trainbench report: {}", runs[0].at("name").get<std::string>())
                       : fmt::format("trainbench report: {} runs compared", runs.size());
  std::string page;
  page.reserve(chart_js.size() + 65536);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Nothing may be fetched: no scripts, styles, images, fonts or connections from anywhere.
  page +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src "
      "'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page +=
      "<meta name=\"generator\" content=\"" + HtmlEscape(model.value("generated_by", "")) + "\">\n";
  page += "<title>" + HtmlEscape(title) + "</title>\n<style>\n" + PageAssetText("page.css") +
          "</style>\n";
  page += "</head>\n<body>\n<header><h1>" + HtmlEscape(title) +
          "</h1><p id=\"subtitle\"></p></header>\n<main id=\"report\"></main>\n";
  page += "<script type=\"application/json\" id=\"report-data\">" + ScriptSafeJson(model) +
          "</script>\n";
  page += "<script>\n" + ScriptSafeSource(chart_js) + "\n</script>\n";
  page += "<script>";
  for (const char* script : kPageScripts) page += "\n" + PageAssetText(script);
  page += "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace trainbench::report
