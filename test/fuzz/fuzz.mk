# fuzz.mk - builds the libFuzzer harnesses of test/fuzz with clang (ASan + UBSan), apart
# from the main build (its own objects in $(BUILD)/test/fuzz/obj). GNU make. Called by
# `make fuzz-build` (Makefile: test/fuzz/fuzz.am), which passes:
#   SRC, BUILD   the top source and build folders
#   LIBSRC       the library's sources (relative to SRC; headers are skipped)
#   CLANG        a clang whose -fsanitize=fuzzer links (configure: FUZZ_CLANG)
#   EXT_CFLAGS, EXT_LIBS   zlib's and libxml2's flags
O := $(BUILD)/test/fuzz/obj
HARNESSES := fuzz_trace fuzz_platform fuzz_hostfile
SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
CFLAGS := -std=c11 -g -O1 -fno-omit-frame-pointer $(SAN) -fsanitize=fuzzer-no-link
CPPFLAGS := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I$(BUILD) \
	$(addprefix -I$(SRC)/,base trace models models/coll replay output) $(EXT_CFLAGS)
LIBOBJ := $(patsubst %.c,$(O)/%.o,$(filter %.c,$(LIBSRC)))

all: $(addprefix $(BUILD)/test/fuzz/,$(HARNESSES))
.SECONDARY: # keep the objects (make would remove them as intermediate files)

$(O)/%.o: $(SRC)/%.c
	@mkdir -p $(@D)
	@echo "  FUZZCC   $<"
	@$(CLANG) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/test/fuzz/%: $(O)/test/fuzz/%.o $(LIBOBJ)
	@echo "  FUZZLD   $@"
	@$(CLANG) $(CFLAGS) -fsanitize=fuzzer $^ -o $@ $(EXT_LIBS) -lm

-include $(LIBOBJ:.o=.d) $(addprefix $(O)/test/fuzz/,$(HARNESSES:=.d))
