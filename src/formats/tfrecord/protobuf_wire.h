// The few protobuf wire-format pieces a tf.train.Example needs. Hand-encoded on
// purpose: the Example wraps a multi-MB payload that datagen generates in place and a
// run never parses, so a protobuf library would only add a copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace trainbench::formats {

void PutVarint(std::string& out, uint64_t value);
size_t VarintSize(uint64_t value);
// Reads a varint at data[*pos]; returns false if it runs past `size`.
bool GetVarint(const unsigned char* data, size_t size, size_t* pos, uint64_t* value);

// The bytes of a tf.train.Example {features: {"image": bytes_list[payload], "size":
// int64_list[size_value]}} that come before the payload, and after it (none: the
// payload is the last thing in the encoding). DLIO writes exactly these two features.
std::string ExamplePrefix(uint64_t payload_size, uint64_t size_value);

// Parses an Example and returns the image payload's offset and length within `data`
// and the "size" feature; false if the encoding is not such an Example.
struct ParsedExample {
  size_t image_offset = 0;
  size_t image_length = 0;
  int64_t size_feature = -1;
};
bool ParseExample(const unsigned char* data, size_t size, ParsedExample* out);

}  // namespace trainbench::formats
