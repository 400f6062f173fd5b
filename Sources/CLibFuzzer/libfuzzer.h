// libFuzzer's driver, in the Swift toolchain's libclang_rt.fuzzer (linked by -sanitize=fuzzer).
// Called from darkroom-fuzz's own main: SwiftPM makes every executable's module its entry point.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
