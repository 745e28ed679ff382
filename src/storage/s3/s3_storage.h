// Storage on S3 (or any S3-compatible object store: Ceph's RADOS Gateway, MinIO): objects
// under s3://bucket/prefix. Writes buffer in memory and publish on Commit with one PUT,
// or as a multipart upload once they outgrow a part (parts of S3Options::part_size,
// aborted when the writer is dropped uncommitted; uploads a killed writer left open are
// RemoveLeftovers' to abort); an object is never visible half-written. Whole-object reads are
// ranged GETs; the read engine `s3` (s3_read_engine.h) keeps many ranged GETs in flight on one
// thread. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "storage/s3/s3_http.h"
#include "storage/storage.h"

namespace trainbench::storage {

class S3Storage : public Storage {
 public:
  S3Storage(const std::string& uri, const std::map<std::string, std::string>& storage_options);

  std::unique_ptr<AtomicWriter> Create(const std::string& path) override;
  std::unique_ptr<RandomAccessFile> Open(const std::string& path,
                                         const OpenOptions& options) override;
  std::optional<uint64_t> FileSize(const std::string& path) override;
  void Remove(const std::string& path) override;
  std::vector<ListEntry> List(const std::string& prefix) override;
  void ListEach(const std::string& prefix,
                const std::function<void(const ListEntry&)>& each) override;
  size_t RemoveLeftovers(const std::string& prefix) override;
  std::string Describe(const std::string& path) const override;
  std::optional<std::string> LocalPath(const std::string& path) const override;
  std::string EndpointUrl() const override;
  LockAttempt TryLock(const std::string& path) override;
  LockAttempt TryLockFreshName(const std::string& path) override;
  // Adds `s3`: libcurl's multi interface, many ranged GETs in flight per reader loop.
  std::unique_ptr<ReadEngine> OpenReadEngine(SharedObjectNames objects,
                                             const ReadEngineOptions& options) override;
  std::string DefaultReadEngine() const override { return "s3"; }
  std::vector<std::string> ReadEngines() const override { return {"s3", "pread", "null"}; }
  std::map<std::string, double> Counters() const override;
  std::map<std::string, metrics::Histogram> OperationLatencies() const override {
    return endpoint_.Latencies();
  }

  const S3Endpoint& endpoint() const { return endpoint_; }

 private:
  S3Endpoint endpoint_;
  bool uploads_unlisted_ = false;  // ListMultipartUploads failed once: warned, not tried again
};

}  // namespace trainbench::storage
