#include "report/page/page_assets.h"

#include <stdexcept>

namespace trainbench::report {

const std::string& PageAssetText(std::string_view name) {
  for (const PageAsset& asset : PageAssets())
    if (asset.name == name) return asset.text;
  throw std::logic_error("no report page asset " + std::string(name) +
                         " in the binary: src/report/page/assets/ and the build disagree");
}

}  // namespace trainbench::report
