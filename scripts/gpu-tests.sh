#!/usr/bin/env bash
# GPU integration tests: the GPU machine has no MLIR, so they are built here
# and run there.
#   scripts/gpu-tests.sh build        compile test/Integration/GPU into build/gpu-tests
#   bash build/gpu-tests/run.sh       (on the GPU machine) run them, outputs in $OUT or ./out
#   scripts/gpu-tests.sh check DIR    FileCheck the outputs in DIR against the tests
# A test's `// GPU-OPTIONS: OPTIONS` are added to its default build's
# --spacefusion-lower-gpu options. It may also declare variants, built and
# run besides its default build:
#   // GPU-VARIANT: NAME PREFIX [-DMACRO...] [@function...] -- OPTIONS
# compiles the test (only the @functions, when given) with
# --spacefusion-lower-gpu="format=bin OPTIONS", its main with the macros, and
# checks the output NAME.out with FileCheck --check-prefix=PREFIX; the test's
# RUN lines do the same under lit.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SPACEFUSION_BUILD_DIR:-$root/build}"
bundle="$build/gpu-tests"
tools=/usr/lib/llvm-22/bin

# Links $bundle/NAME.ll into libNAME.so and MAIN (with the extra compiler
# flags that follow) into the NAME executable, and adds its run to run.sh.
link_test() {
  local name="$1" main="$2"
  shift 2
  "$tools/clang" -O2 -shared -fPIC "$bundle/$name.ll" -o "$bundle/lib$name.so" \
    -L"$bundle" -lspacefusion_cuda_runtime -Wl,-rpath,'$ORIGIN'
  "$tools/clang" -O2 "$@" "$main" -I"$root/include" \
    "$bundle/lib$name.so" -L"$bundle" -lspacefusion_cuda_runtime -lm \
    -Wl,-rpath,'$ORIGIN' -o "$bundle/$name"
  # Each test under its own limit: a hung kernel (exit 124) must not keep
  # the tests after it from running.
  echo "timeout 60 ./$name > \"\$out/$name.out\" 2>&1; echo \"$name: exit \$?\"; cat \"\$out/$name.out\"" >> "$bundle/run.sh"
}

case "${1:-}" in
build)
  rm -rf "$bundle" && mkdir -p "$bundle"
  cp "$build/lib/libspacefusion_cuda_runtime.so" "$bundle/"
  echo 'set -u; cd "$(dirname "$0")"; out="${OUT:-out}"; mkdir -p "$out"; status=0' > "$bundle/run.sh"
  for test in "$root"/test/Integration/GPU/*.mlir; do
    name="$(basename "$test" .mlir)"
    if grep -q -- '--spacefusion-lower-gpu' "$test"; then
      # Linalg input: the project's GPU pipeline, with the test's
      # `// GPU-OPTIONS:` when it has some.
      options="$(sed -n 's|^// GPU-OPTIONS: ||p' "$test" | head -1)"
      "$build/bin/spacefusion-opt" "$test" "--spacefusion-lower-gpu=format=bin $options" \
        | "$tools/mlir-translate" --mlir-to-llvmir -o "$bundle/$name.ll"
    else
      pipeline="$(sed -n 's/.*--gpu-lower-to-nvvm-pipeline="\([^"]*\)".*/\1/p' "$test" | head -1)"
      "$tools/mlir-opt" "$test" --gpu-lower-to-nvvm-pipeline="$pipeline" \
        | "$tools/mlir-translate" --mlir-to-llvmir -o "$bundle/$name.ll"
    fi
    main="$root/test/Integration/GPU/$name-main.c"
    link_test "$name" "$main"
    sed -n 's|^// GPU-VARIANT: ||p' "$test" | while read -r variant prefix rest; do
      flags="${rest%%--*}" options="${rest#*-- }" macros=() functions=()
      for word in $flags; do
        case "$word" in
        @*) functions+=(-e "/^func.func ${word}(/,/^}/p") ;;
        *) macros+=("$word") ;;
        esac
      done
      if [ "${#functions[@]}" -gt 0 ]; then
        sed -n "${functions[@]}" "$test" > "$bundle/$variant.mlir"
      else
        cp "$test" "$bundle/$variant.mlir"
      fi
      "$build/bin/spacefusion-opt" "$bundle/$variant.mlir" \
        "--spacefusion-lower-gpu=format=bin $options" \
        | "$tools/mlir-translate" --mlir-to-llvmir -o "$bundle/$variant.ll"
      link_test "$variant" "$main" "${macros[@]}"
    done
  done
  echo "built $(ls "$bundle" | wc -l) files in $bundle"
  ;;
check)
  dir="${2:?usage: gpu-tests.sh check DIR}"
  for test in "$root"/test/Integration/GPU/*.mlir; do
    name="$(basename "$test" .mlir)"
    "$tools/FileCheck" "$test" --input-file "$dir/$name.out" && echo "$name: PASS"
    sed -n 's|^// GPU-VARIANT: ||p' "$test" | while read -r variant prefix _; do
      "$tools/FileCheck" "$test" --check-prefix="$prefix" --input-file "$dir/$variant.out" &&
        echo "$variant: PASS"
    done
  done
  ;;
*)
  echo "usage: $0 build | check DIR" >&2
  exit 2
  ;;
esac
