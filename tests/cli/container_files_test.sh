#!/usr/bin/env bash
# The container files that cannot be built or applied on this box, checked offline (what
# docs/containers.md says is validated, and how): container/k8s-job.yaml parses as YAML
# (python3-yaml) into a batch/v1 Job with the fields Kubernetes requires (name, a pod template
# with restartPolicy Never or OnFailure, a container with a name and an image), asking for a
# GPU and running the seed's train flags, which `trainbench train --help` lists;
# container/trainbench.def has Apptainer's header (Bootstrap, From) and known, unrepeated
# sections, and runs the entrypoint container/build.sh gives its image;
# container/Containerfile.gpu is a sequence of Containerfile instructions (continuations
# joined) starting FROM an NGC PyTorch image, whose COPY sources exist here and whose
# ENTRYPOINT is the same JSON array.
source "$(dirname "$0")/../lib/common.sh"
skip_unless 'python_has yaml' "python3-yaml missing (bash scripts/setup.sh installs it)"
cd "$WORK"
"$TB" train --help >train_help.txt 2>&1 || true

"$PY" - "$SRC/container/k8s-job.yaml" train_help.txt <<'PY' || fail "container/k8s-job.yaml"
import re, sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
assert len(docs) == 1, f"{len(docs)} YAML documents"
job = docs[0]
assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job", (job.get("apiVersion"), job.get("kind"))
name = job["metadata"]["name"]
assert re.fullmatch(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?", name), name
pod = job["spec"]["template"]["spec"]
assert pod["restartPolicy"] in ("Never", "OnFailure"), pod.get("restartPolicy")  # a Job's rule
(c,) = pod["containers"]
assert c["name"] and c["image"], c
assert int(c["resources"]["limits"]["nvidia.com/gpu"]) >= 1, c["resources"]
args = c["args"]
assert all(isinstance(a, str) for a in args), args  # numbers must be quoted strings
assert args[0] == "train", args
seed = ["--lr", "0.1", "--batch-size", "128", "--epochs", "1", "--steps-per-epoch", "200"]
assert args[1:9] == seed, args
helptext = open(sys.argv[2]).read()
for flag in args[1::2]:
    assert flag in helptext, f"{flag} is not in trainbench train --help"
print("ok: k8s-job.yaml is a batch/v1 Job running", " ".join(args))
PY
checks=$((checks + 1))

"$PY" - "$SRC/container/trainbench.def" "$SRC/container/build.sh" <<'PY' || fail "container/trainbench.def"
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
body = [l for l in lines if l.strip() and not l.lstrip().startswith("#")]
header, sections, current = {}, {}, None
for l in body:
    m = re.fullmatch(r"%([a-z]+)(\s.*)?", l)
    if m:
        current = m.group(1)
        assert current in {"setup", "files", "environment", "post", "runscript", "startscript",
                           "test", "labels", "help", "arguments"}, f"unknown section %{current}"
        assert current not in sections, f"%{current} twice"
        sections[current] = []
    elif current is None:
        key, sep, value = l.partition(":")
        assert sep and value.strip(), f"header line without 'Key: value': {l!r}"
        header[key.strip()] = value.strip()
    else:
        assert l.startswith((" ", "\t")), f"section line not indented: {l!r}"
        sections[current].append(l.strip())
assert header.get("Bootstrap") in ("docker-archive", "oci-archive", "docker", "docker-daemon"), header
assert header.get("From"), header
assert "runscript" in sections and "test" in sections, sorted(sections)
entry = re.search(r"ENTRYPOINT \[\"([^\"]+)\"\]", open(sys.argv[2]).read()).group(1)
assert sections["runscript"] == [f'exec {entry} "$@"'], (sections["runscript"], entry)
print("ok: trainbench.def:", header, "sections", sorted(sections))
PY
checks=$((checks + 1))

"$PY" - "$SRC/container/Containerfile.gpu" "$SRC" <<'PY' || fail "container/Containerfile.gpu"
import json, os, re, sys
text = open(sys.argv[1]).read()
known = {"FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME",
         "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"}
instructions, pending = [], ""
for line in text.splitlines():
    if not pending and (not line.strip() or line.lstrip().startswith("#")):
        continue
    pending += line.rstrip("\\").strip() + " " if line.endswith("\\") else line.strip()
    if not line.endswith("\\"):
        instructions.append(pending)
        pending = ""
assert not pending, "a continuation runs off the end"
kinds = [i.split()[0] for i in instructions]
for i, k in zip(instructions, kinds):
    assert k in known, f"not an instruction: {i[:60]!r}"
assert kinds[0] in ("ARG", "FROM") and "FROM" in kinds, kinds
args = dict(i.split()[1].split("=", 1) for i in instructions if i.startswith("ARG ") and "=" in i)
base = [i.split()[1] for i in instructions if i.startswith("FROM ")][0]
base = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], base)
assert base.startswith("nvcr.io/nvidia/pytorch:"), base
for i in instructions:
    if i.startswith("COPY "):
        for src in i.split()[1:-1]:
            assert os.path.exists(os.path.join(sys.argv[2], src)), f"COPY {src}: not in the checkout"
(entry,) = [i for i in instructions if i.startswith("ENTRYPOINT ")]
assert json.loads(entry[len("ENTRYPOINT "):]) == ["/opt/trainbench/trainbench"], entry
print(f"ok: Containerfile.gpu: {len(instructions)} instructions from {base}")
PY
checks=$((checks + 1))
done_ok
