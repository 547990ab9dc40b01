#include "driver.h"

// SwiftPM links an executable with `main` defined as `<module>_main` (so tests can link it), and
// libFuzzer's own `main` is then never used: this is that entry point, and it runs libFuzzer's driver
// on the Swift target's LLVMFuzzerTestOneInput.
int larder_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
