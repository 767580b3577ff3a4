// ICU's alphabetic index, which ICU offers only in C++ (unicode/alphaindex.h), behind the plain-C
// functions of CICU.h. Nothing of C++ crosses the header: the index is an opaque pointer, and no
// exception can leave these functions (ICU reports failures through UErrorCode and allocates
// through its own operator new, which returns null instead of throwing).
#include "CICU.h"

#include <unicode/alphaindex.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>

using icu::AlphabeticIndex;

extern "C" {

void *cicu_alphabetic_index_open(const char *locale, const char *extra_labels_locale,
                                 int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  // The builder is needed only to make the immutable index, which owns copies of what it uses.
  AlphabeticIndex builder(icu::Locale(locale), code);
  if (extra_labels_locale != nullptr) builder.addLabels(icu::Locale(extra_labels_locale), code);
  AlphabeticIndex::ImmutableIndex *index = builder.buildImmutableIndex(code);
  if (U_FAILURE(code)) {
    delete index;
    index = nullptr;
  }
  *status = code;
  return index;
}

void cicu_alphabetic_index_close(void *index) {
  delete static_cast<AlphabeticIndex::ImmutableIndex *>(index);
}

int32_t cicu_alphabetic_index_bucket_count(const void *index) {
  return static_cast<const AlphabeticIndex::ImmutableIndex *>(index)->getBucketCount();
}

int32_t cicu_alphabetic_index_bucket_label(const void *index, int32_t bucket, uint16_t *dest,
                                           int32_t capacity, int32_t *label_type,
                                           int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  const AlphabeticIndex::Bucket *found =
      static_cast<const AlphabeticIndex::ImmutableIndex *>(index)->getBucket(bucket);
  if (U_FAILURE(code)) return 0;
  if (found == nullptr) {
    *status = U_INDEX_OUTOFBOUNDS_ERROR;
    return 0;
  }
  *label_type = found->getLabelType();
  int32_t length = found->getLabel().extract(reinterpret_cast<UChar *>(dest), capacity, code);
  *status = code;
  return length;
}

int32_t cicu_alphabetic_index_bucket_of(const void *index, const uint16_t *text, int32_t length,
                                        int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  // A read-only alias of the caller's text: no copy.
  const icu::UnicodeString string(false, reinterpret_cast<const UChar *>(text), length);
  int32_t bucket =
      static_cast<const AlphabeticIndex::ImmutableIndex *>(index)->getBucketIndex(string, code);
  *status = code;
  return bucket;
}

}  // extern "C"
