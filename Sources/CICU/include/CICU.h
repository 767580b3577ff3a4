// CICU: the package's one C boundary over ICU (Debian's libicu-dev).
//
// Only <stdint.h>/<stddef.h> types cross this header, so Swift never sees ICU's own headers
// (Foundation on Linux carries a second copy of them, and the two cannot share a compile).
// Text is UTF-16 (`uint16_t`), ICU's native form. Every function that can fail takes an
// `int32_t *status` in ICU's UErrorCode convention: set it to 0 before the call; a value > 0
// is a failure whose name `cicu_error_name` returns. Each wrapper says which ICU function it
// calls. The wrappers are in CICU.c, except those of the alphabetic index, which ICU offers
// only in C++: they are in AlphabeticIndex.cpp, declared here as plain C all the same.
#ifndef CICU_H
#define CICU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// ICU's U_BUFFER_OVERFLOW_ERROR: the destination was too small; the return value is the
/// length needed.
#define CICU_BUFFER_OVERFLOW_ERROR 15

/// ICU's U_INDEX_OUTOFBOUNDS_ERROR: an index (such as a bucket number) is out of range.
#define CICU_INDEX_OUTOFBOUNDS_ERROR 8

/// The name of an ICU status code, e.g. "U_ILLEGAL_ARGUMENT_ERROR" (u_errorName).
const char *cicu_error_name(int32_t status);

/// The ICU library's version as "72.1" (u_getVersion, u_versionToString); `out` holds 20 bytes.
void cicu_version(char *out, size_t capacity);

/// The East Asian Width class of a code point (u_getIntPropertyValue with
/// UCHAR_EAST_ASIAN_WIDTH): 0 neutral, 1 ambiguous, 2 halfwidth, 3 fullwidth, 4 narrow, 5 wide.
int32_t cicu_east_asian_width(int32_t code_point);

/// Whether a code point is Extended_Pictographic, the emoji property of the grapheme-cluster
/// rules (u_hasBinaryProperty with UCHAR_EXTENDED_PICTOGRAPHIC): 1 or 0.
int32_t cicu_is_extended_pictographic(int32_t code_point);

/// The Script property of a code point as a UScriptCode (uscript_getScript): 0 Common,
/// 1 Inherited, 25 Latin, ...; -1 on failure.
int32_t cicu_script(int32_t code_point);

/// Whether `script` (a UScriptCode) is among the Script_Extensions of a code point
/// (uscript_hasScript): 1 or 0. U+30FC (ー) is Common with the extensions Hiragana and
/// Katakana.
int32_t cicu_has_script(int32_t code_point, int32_t script);

/// Whether ICU has data for the language of `locale` ("tr", "tr_TR", "sv-SE"): some locale
/// of uloc_getAvailable has the same language subtag. The root locale ("" or "root") counts.
int32_t cicu_locale_is_available(const char *locale);

// MARK: Normalizer2

/// The Normalizer2 forms the engine uses.
typedef enum cicu_normalization_form {
  CICU_NFC = 0,
  CICU_NFD = 1,
  CICU_NFKC = 2,
  CICU_NFKD = 3,
  CICU_NFKC_CASEFOLD = 4,
} cicu_normalization_form;

/// A shared, immutable Normalizer2 instance (unorm2_getNFCInstance and siblings). Owned by ICU:
/// never closed, and safe to use from several threads at once.
const void *cicu_normalizer(cicu_normalization_form form, int32_t *status);

/// Normalizes `source` into `dest` (unorm2_normalize); returns the length of the result, which
/// may exceed `capacity` (then `status` is CICU_BUFFER_OVERFLOW_ERROR).
int32_t cicu_normalize(const void *normalizer, const uint16_t *source, int32_t length,
                       uint16_t *dest, int32_t capacity, int32_t *status);

/// Whether `source` is already in the normalizer's form (unorm2_isNormalized).
int32_t cicu_is_normalized(const void *normalizer, const uint16_t *source, int32_t length,
                           int32_t *status);

// MARK: Case folding

/// Full case folding (u_strFoldCase): "ß" becomes "ss", "ς" becomes "σ". With `turkic` set,
/// the Turkic mappings apply (U_FOLD_CASE_EXCLUDE_SPECIAL_I): "I" becomes "ı", "İ" becomes "i".
/// Returns the length needed, as cicu_normalize.
int32_t cicu_fold_case(const uint16_t *source, int32_t length, uint16_t *dest, int32_t capacity,
                       int32_t turkic, int32_t *status);

// MARK: Transliteration

/// Opens a transliterator by ID, e.g. "Any-Latin; Latin-ASCII" (utrans_openU). Not safe to
/// share between threads: clone it for each. Close with cicu_transliterator_close.
void *cicu_transliterator_open(const uint16_t *id, int32_t id_length, int32_t *status);

/// An independent copy of a transliterator, for another thread (utrans_clone).
void *cicu_transliterator_clone(const void *transliterator, int32_t *status);

/// Closes a transliterator (utrans_close); null is ignored.
void cicu_transliterator_close(void *transliterator);

/// Transliterates `text[0..<length]` in place (utrans_transUChars); returns the new length,
/// which may exceed `capacity` (then `status` is CICU_BUFFER_OVERFLOW_ERROR and `text` is
/// unspecified: call again with the original text and a larger buffer).
int32_t cicu_transliterate(void *transliterator, uint16_t *text, int32_t length,
                           int32_t capacity, int32_t *status);

// MARK: Break iteration

/// The boundary kinds of cicu_boundaries.
typedef enum cicu_break_kind {
  CICU_BREAK_CHARACTER = 0,  ///< grapheme clusters (UBRK_CHARACTER)
  CICU_BREAK_WORD = 1,       ///< words (UBRK_WORD)
} cicu_break_kind;

/// Writes every boundary of `text` (UTF-16 offsets, 0 and `length` included) to `boundaries`
/// (ubrk_open, ubrk_first, ubrk_next, ubrk_close). For words, `word_flags[i]` (if not null)
/// is 1 when the segment starting at `boundaries[i]` is a word (letters, numbers, kana or
/// ideographs, from ubrk_getRuleStatus) and 0 for spaces and punctuation. Returns the number
/// of boundaries, which may exceed `capacity` (then `status` is CICU_BUFFER_OVERFLOW_ERROR).
int32_t cicu_boundaries(cicu_break_kind kind, const char *locale, const uint16_t *text,
                        int32_t length, int32_t *boundaries, uint8_t *word_flags,
                        int32_t capacity, int32_t *status);

// MARK: Collation

/// Opens a collator for a locale such as "es" or "sv" (ucol_open). Not safe to share between
/// threads: clone it for each. Close with cicu_collator_close.
void *cicu_collator_open(const char *locale, int32_t *status);

/// An independent copy of a collator, for another thread (ucol_clone).
void *cicu_collator_clone(const void *collator, int32_t *status);

/// Closes a collator (ucol_close); null is ignored.
void cicu_collator_close(void *collator);

/// Sets the collator's strength: 0 primary, 1 secondary, 2 tertiary (ucol_setStrength).
void cicu_collator_set_strength(void *collator, int32_t strength);

/// Writes the sort key of `text` (ucol_getSortKey); returns its length including the final
/// zero byte, which may exceed `capacity` (then nothing useful was written).
int32_t cicu_collator_sort_key(const void *collator, const uint16_t *text, int32_t length,
                               uint8_t *dest, int32_t capacity);

/// Compares two strings: -1, 0 or 1 (ucol_strcoll).
int32_t cicu_collator_compare(const void *collator, const uint16_t *a, int32_t a_length,
                              const uint16_t *b, int32_t b_length);

// MARK: Alphabetic index

/// The kinds of bucket label of an alphabetic index (UAlphabeticIndexLabelType).
typedef enum cicu_index_label_type {
  CICU_INDEX_LABEL_NORMAL = 0,     ///< a letter such as "A" or "か" (U_ALPHAINDEX_NORMAL)
  CICU_INDEX_LABEL_UNDERFLOW = 1,  ///< before the first letter (U_ALPHAINDEX_UNDERFLOW)
  CICU_INDEX_LABEL_INFLOW = 2,     ///< between two scripts (U_ALPHAINDEX_INFLOW)
  CICU_INDEX_LABEL_OVERFLOW = 3,   ///< after the last letter (U_ALPHAINDEX_OVERFLOW)
} cicu_index_label_type;

/// Opens the immutable alphabetic index of a locale (AlphabeticIndex(Locale, status), then
/// AlphabeticIndex::addLabels(Locale, status) with `extra_labels_locale` when it is not null,
/// then AlphabeticIndex::buildImmutableIndex). ICU documents the immutable index as safe to
/// use from several threads at once. Close with cicu_alphabetic_index_close.
void *cicu_alphabetic_index_open(const char *locale, const char *extra_labels_locale,
                                 int32_t *status);

/// Closes an alphabetic index (deletes the AlphabeticIndex::ImmutableIndex); null is ignored.
void cicu_alphabetic_index_close(void *index);

/// The number of buckets, the underflow, inflow and overflow buckets included
/// (AlphabeticIndex::ImmutableIndex::getBucketCount).
int32_t cicu_alphabetic_index_bucket_count(const void *index);

/// Writes the label of a bucket to `dest` and its cicu_index_label_type to `label_type`
/// (AlphabeticIndex::ImmutableIndex::getBucket, Bucket::getLabel, Bucket::getLabelType,
/// UnicodeString::extract). Returns the label's length, which may exceed `capacity` (then
/// `status` is CICU_BUFFER_OVERFLOW_ERROR). A bucket out of range is
/// CICU_INDEX_OUTOFBOUNDS_ERROR.
int32_t cicu_alphabetic_index_bucket_label(const void *index, int32_t bucket, uint16_t *dest,
                                           int32_t capacity, int32_t *label_type,
                                           int32_t *status);

/// The bucket that `text` is filed under (AlphabeticIndex::ImmutableIndex::getBucketIndex).
int32_t cicu_alphabetic_index_bucket_of(const void *index, const uint16_t *text, int32_t length,
                                        int32_t *status);

#ifdef __cplusplus
}
#endif

#endif  // CICU_H
