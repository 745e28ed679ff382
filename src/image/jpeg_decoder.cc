#include "image/jpeg_decoder.h"

// jpeglib.h needs size_t and FILE declared before it.
#include <fmt/format.h>
#include <jpeglib.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>

#include "common/error.h"

namespace trainbench::image {

// libjpeg reports fatal errors through a callback that must not return; it longjmps back
// to the entry point below. Only plain C state lives between setjmp and longjmp.
struct ErrorManager {
  jpeg_error_mgr base;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

struct JpegDecoder::State {
  jpeg_decompress_struct info;
  ErrorManager error;
  bool header_read = false;
};

namespace {

void OnFatalError(j_common_ptr info) {
  auto* error = reinterpret_cast<ErrorManager*>(info->err);
  (*info->err->format_message)(info, error->message);
  std::longjmp(error->jump, 1);
}

// Corrupt-data warnings ("premature end of data") still decode; PIL accepts them too.
void OnWarning(j_common_ptr /*info*/) {}

bool ReadHeaderC(jpeg_decompress_struct* info, ErrorManager* error, const uint8_t* data,
                 size_t size) {
  if (setjmp(error->jump)) {
    jpeg_abort_decompress(info);
    return false;
  }
  jpeg_mem_src(info, data, static_cast<unsigned long>(size));
  jpeg_read_header(info, TRUE);
  return true;
}

// Adobe CMYK JPEGs store inverted ink; RGB = ink * black / 255, as PIL converts them.
void CmykRowToRgb(const uint8_t* cmyk, int width, uint8_t* rgb) {
  for (int x = 0; x < width; ++x, cmyk += 4, rgb += 3) {
    const int k = cmyk[3];
    rgb[0] = static_cast<uint8_t>((cmyk[0] * k + 127) / 255);
    rgb[1] = static_cast<uint8_t>((cmyk[1] * k + 127) / 255);
    rgb[2] = static_cast<uint8_t>((cmyk[2] * k + 127) / 255);
  }
}

// The decode proper; libjpeg errors longjmp out of it to DecodeC.
void DecodeRegionRows(jpeg_decompress_struct* info, int scale_eighths, int x0, int y0, int x1,
                      int y1, DecodedRegion* out, uint8_t* cmyk_row) {
  const bool cmyk = info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK;
  info->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
  info->scale_num = static_cast<unsigned>(scale_eighths);
  info->scale_denom = 8;
  info->dct_method = JDCT_ISLOW;  // what PIL uses, so pixels match it
  jpeg_start_decompress(info);
  out->scaled_image_width = static_cast<int>(info->output_width);
  out->scaled_image_height = static_cast<int>(info->output_height);
  // One extra column each side: fancy upsampling replicates the edge column of a cropped
  // scanline, so the outermost decoded columns can differ from a full decode; with the
  // margin they fall outside the region asked for.
  x0 = std::clamp(x0 - 1, 0, out->scaled_image_width - 1);
  x1 = std::clamp(x1 + 1, x0 + 1, out->scaled_image_width);
  y0 = std::clamp(y0, 0, out->scaled_image_height - 1);
  y1 = std::clamp(y1, y0 + 1, out->scaled_image_height);
  JDIMENSION x_offset = static_cast<JDIMENSION>(x0);
  JDIMENSION width = static_cast<JDIMENSION>(x1 - x0);
  if (x0 > 0 || x1 < out->scaled_image_width) jpeg_crop_scanline(info, &x_offset, &width);
  if (y0 > 0) jpeg_skip_scanlines(info, static_cast<JDIMENSION>(y0));
  out->x = static_cast<int>(x_offset);
  out->y = y0;
  out->width = static_cast<int>(info->output_width);
  out->height = y1 - y0;
  const size_t row_bytes = static_cast<size_t>(out->width) * 3;
  uint8_t* row = out->rgb.data();
  for (int r = 0; r < out->height; ++r, row += row_bytes) {
    JSAMPROW target = cmyk ? cmyk_row : row;
    jpeg_read_scanlines(info, &target, 1);
    if (cmyk) CmykRowToRgb(cmyk_row, out->width, row);
  }
}

bool DecodeC(jpeg_decompress_struct* info, ErrorManager* error, int scale_eighths, int x0, int y0,
             int x1, int y1, DecodedRegion* out, uint8_t* cmyk_row) {
  if (setjmp(error->jump)) {
    jpeg_abort_decompress(info);
    return false;
  }
  DecodeRegionRows(info, scale_eighths, x0, y0, x1, y1, out, cmyk_row);
  // Rows below the region are never decoded.
  jpeg_abort_decompress(info);
  return true;
}

// jpeg_CreateDecompress fails (through error_exit) when the libjpeg loaded is not the one
// whose jpeglib.h we compiled against: a host with two libjpegs. That must be an error
// naming both versions, not a longjmp to nowhere.
bool CreateC(jpeg_decompress_struct* info, ErrorManager* error, int header_version) {
  if (setjmp(error->jump)) return false;
  jpeg_CreateDecompress(info, header_version, sizeof(jpeg_decompress_struct));
  return true;
}

}  // namespace

JpegDecoder::JpegDecoder() : JpegDecoder(JPEG_LIB_VERSION) {}

JpegDecoder::JpegDecoder(int header_version) : state_(std::make_unique<State>()) {
  state_->info.err = jpeg_std_error(&state_->error.base);
  state_->error.base.error_exit = OnFatalError;
  state_->error.base.output_message = OnWarning;
  if (!CreateC(&state_->info, &state_->error, header_version))
    throw RuntimeError(fmt::format(
        "libjpeg: {} (trainbench was compiled with jpeglib.h of libjpeg {} but runs with "
        "another libjpeg: build against the headers of the library it links, e.g. "
        "scripts/gpu_host_build.sh)",
        state_->error.message, header_version));
  created_ = true;
}

JpegDecoder::~JpegDecoder() {
  if (created_) jpeg_destroy_decompress(&state_->info);
}

JpegHeader JpegDecoder::ReadHeader(const uint8_t* data, size_t size, const std::string& name) {
  name_ = name;
  state_->header_read = false;
  if (!ReadHeaderC(&state_->info, &state_->error, data, size))
    throw RuntimeError(name + ": not a readable JPEG: " + state_->error.message);
  state_->header_read = true;
  return {static_cast<int>(state_->info.image_width), static_cast<int>(state_->info.image_height)};
}

void JpegDecoder::Decode(int scale_eighths, int x0, int y0, int x1, int y1, DecodedRegion& out) {
  if (!state_->header_read) throw RuntimeError("JpegDecoder::Decode called without a header");
  state_->header_read = false;
  // Room for the widest region libjpeg may widen the crop to (whole scaled rows).
  const int full_width = ScaledSize(static_cast<int>(state_->info.image_width), scale_eighths);
  const int rows = std::max(1, y1 - y0);
  out.rgb.resize(static_cast<size_t>(full_width + 16) * 3 * static_cast<size_t>(rows));
  std::vector<uint8_t> cmyk_row;
  if (state_->info.jpeg_color_space == JCS_CMYK || state_->info.jpeg_color_space == JCS_YCCK)
    cmyk_row.resize(static_cast<size_t>(full_width + 16) * 4);
  if (!DecodeC(&state_->info, &state_->error, scale_eighths, x0, y0, x1, y1, &out, cmyk_row.data()))
    throw RuntimeError(name_ + ": JPEG decode failed: " + state_->error.message);
}

}  // namespace trainbench::image
