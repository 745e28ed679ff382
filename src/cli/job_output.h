// How every job ends on the terminal (app::JobReport): its text, "results: FOLDER", the final
// JSON line (last on stdout, what harnesses parse), then on stderr why it failed or why its
// results could not be written. Returns the exit code.
#pragma once

#include <functional>
#include <string>

#include "app/frame/job_report.h"

namespace trainbench::cli {

int ShowJobReport(const app::JobReport& report);

// For the commands that take S3 settings as --s3-option KEY=VALUE (train, stage, replay):
// runs `job`, and a message that names a workload's key storage.storage_options.KEY (the
// storage's own words, shared with run and datagen) names --s3-option KEY instead.
int WithS3OptionFlag(const std::function<int()>& job);
// The same rewording of one message.
std::string S3OptionFlagWords(const std::string& text);

}  // namespace trainbench::cli
