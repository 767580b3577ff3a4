// The C file that includes ICU (the alphabetic index, which ICU offers only in C++, is in
// AlphabeticIndex.cpp). Each function is a thin wrapper; see CICU.h.
#include "CICU.h"

#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/ucol.h>
#include <unicode/uloc.h>
#include <unicode/uscript.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <unicode/uversion.h>

const char *cicu_error_name(int32_t status) { return u_errorName((UErrorCode)status); }

void cicu_version(char *out, size_t capacity) {
  UVersionInfo info;
  char text[U_MAX_VERSION_STRING_LENGTH];
  u_getVersion(info);
  u_versionToString(info, text);
  if (capacity == 0) return;
  strncpy(out, text, capacity - 1);
  out[capacity - 1] = 0;
}

const void *cicu_normalizer(cicu_normalization_form form, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  const UNormalizer2 *result = NULL;
  switch (form) {
    case CICU_NFC: result = unorm2_getNFCInstance(&code); break;
    case CICU_NFD: result = unorm2_getNFDInstance(&code); break;
    case CICU_NFKC: result = unorm2_getNFKCInstance(&code); break;
    case CICU_NFKD: result = unorm2_getNFKDInstance(&code); break;
    case CICU_NFKC_CASEFOLD: result = unorm2_getNFKCCasefoldInstance(&code); break;
    default: code = U_ILLEGAL_ARGUMENT_ERROR; break;
  }
  *status = code;
  return result;
}

int32_t cicu_normalize(const void *normalizer, const uint16_t *source, int32_t length,
                       uint16_t *dest, int32_t capacity, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  int32_t result = unorm2_normalize((const UNormalizer2 *)normalizer, (const UChar *)source,
                                    length, (UChar *)dest, capacity, &code);
  *status = code;
  return result;
}

int32_t cicu_is_normalized(const void *normalizer, const uint16_t *source, int32_t length,
                           int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  UBool result =
      unorm2_isNormalized((const UNormalizer2 *)normalizer, (const UChar *)source, length, &code);
  *status = code;
  return result ? 1 : 0;
}

int32_t cicu_fold_case(const uint16_t *source, int32_t length, uint16_t *dest, int32_t capacity,
                       int32_t turkic, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  uint32_t options = turkic ? U_FOLD_CASE_EXCLUDE_SPECIAL_I : U_FOLD_CASE_DEFAULT;
  int32_t result =
      u_strFoldCase((UChar *)dest, capacity, (const UChar *)source, length, options, &code);
  *status = code;
  return result;
}

void *cicu_transliterator_open(const uint16_t *id, int32_t id_length, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  UTransliterator *result =
      utrans_openU((const UChar *)id, id_length, UTRANS_FORWARD, NULL, 0, NULL, &code);
  *status = code;
  return result;
}

void *cicu_transliterator_clone(const void *transliterator, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  UTransliterator *result = utrans_clone((const UTransliterator *)transliterator, &code);
  *status = code;
  return result;
}

void cicu_transliterator_close(void *transliterator) {
  if (transliterator) utrans_close((UTransliterator *)transliterator);
}

int32_t cicu_transliterate(void *transliterator, uint16_t *text, int32_t length,
                           int32_t capacity, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  int32_t text_length = length;
  int32_t limit = length;
  utrans_transUChars((UTransliterator *)transliterator, (UChar *)text, &text_length, capacity, 0,
                     &limit, &code);
  *status = code;
  return text_length;
}

int32_t cicu_boundaries(cicu_break_kind kind, const char *locale, const uint16_t *text,
                        int32_t length, int32_t *boundaries, uint8_t *word_flags,
                        int32_t capacity, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  UBreakIteratorType type = kind == CICU_BREAK_WORD ? UBRK_WORD : UBRK_CHARACTER;
  UBreakIterator *iterator = ubrk_open(type, locale, (const UChar *)text, length, &code);
  if (U_FAILURE(code)) {
    *status = code;
    return 0;
  }
  int32_t count = 0;
  for (int32_t boundary = ubrk_first(iterator); boundary != UBRK_DONE;
       boundary = ubrk_next(iterator)) {
    if (count < capacity) {
      boundaries[count] = boundary;
      if (word_flags) word_flags[count] = 0;
      if (word_flags && count > 0) {
        // The rule status describes the segment that ends at this boundary.
        int32_t rule = ubrk_getRuleStatus(iterator);
        word_flags[count - 1] = (kind == CICU_BREAK_WORD && rule >= UBRK_WORD_NONE_LIMIT) ? 1 : 0;
      }
    }
    count++;
  }
  ubrk_close(iterator);
  if (count > capacity) code = U_BUFFER_OVERFLOW_ERROR;
  *status = code;
  return count;
}

void *cicu_collator_open(const char *locale, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  UCollator *result = ucol_open(locale, &code);
  *status = code;
  return result;
}

void *cicu_collator_clone(const void *collator, int32_t *status) {
  UErrorCode code = (UErrorCode)*status;
  UCollator *result = ucol_clone((const UCollator *)collator, &code);
  *status = code;
  return result;
}

void cicu_collator_close(void *collator) {
  if (collator) ucol_close((UCollator *)collator);
}

void cicu_collator_set_strength(void *collator, int32_t strength) {
  UCollationStrength value = strength <= 0 ? UCOL_PRIMARY
                             : strength == 1 ? UCOL_SECONDARY
                                             : UCOL_TERTIARY;
  ucol_setStrength((UCollator *)collator, value);
}

int32_t cicu_collator_sort_key(const void *collator, const uint16_t *text, int32_t length,
                               uint8_t *dest, int32_t capacity) {
  return ucol_getSortKey((const UCollator *)collator, (const UChar *)text, length, dest, capacity);
}

int32_t cicu_collator_compare(const void *collator, const uint16_t *a, int32_t a_length,
                              const uint16_t *b, int32_t b_length) {
  UCollationResult result = ucol_strcoll((const UCollator *)collator, (const UChar *)a, a_length,
                                         (const UChar *)b, b_length);
  return result == UCOL_LESS ? -1 : result == UCOL_GREATER ? 1 : 0;
}

int32_t cicu_east_asian_width(int32_t code_point) {
  return u_getIntPropertyValue(code_point, UCHAR_EAST_ASIAN_WIDTH);
}

int32_t cicu_is_extended_pictographic(int32_t code_point) {
  return u_hasBinaryProperty(code_point, UCHAR_EXTENDED_PICTOGRAPHIC) ? 1 : 0;
}

int32_t cicu_script(int32_t code_point) {
  UErrorCode status = U_ZERO_ERROR;
  UScriptCode script = uscript_getScript(code_point, &status);
  return U_FAILURE(status) ? -1 : (int32_t)script;
}

int32_t cicu_has_script(int32_t code_point, int32_t script) {
  return uscript_hasScript(code_point, (UScriptCode)script) ? 1 : 0;
}

int32_t cicu_locale_is_available(const char *locale) {
  char wanted[ULOC_LANG_CAPACITY];
  UErrorCode status = U_ZERO_ERROR;
  int32_t length = uloc_getLanguage(locale, wanted, ULOC_LANG_CAPACITY, &status);
  if (U_FAILURE(status)) return 0;
  if (length == 0 || strcmp(wanted, "root") == 0) return 1;
  int32_t count = uloc_countAvailable();
  for (int32_t index = 0; index < count; index++) {
    char language[ULOC_LANG_CAPACITY];
    status = U_ZERO_ERROR;
    uloc_getLanguage(uloc_getAvailable(index), language, ULOC_LANG_CAPACITY, &status);
    if (U_SUCCESS(status) && strcmp(language, wanted) == 0) return 1;
  }
  return 0;
}
