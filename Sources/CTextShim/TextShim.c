#include "TextShim.h"
#include <unicode/ubrk.h>
#include <unicode/ubidi.h>

static int32_t collect(UBreakIterator *it, int32_t *positions, uint8_t *hard, int32_t capacity) {
    int32_t count = 0;
    for (int32_t p = ubrk_next(it); p != UBRK_DONE; p = ubrk_next(it)) {
        if (count >= capacity) return -1;
        positions[count] = p;
        if (hard) {
            int32_t status = ubrk_getRuleStatus(it);
            hard[count] = status >= UBRK_LINE_HARD && status < UBRK_LINE_HARD_LIMIT;
        }
        count++;
    }
    return count;
}

/* Opening a break iterator loads and compiles its rules (tens of microseconds): each thread
   keeps one of each kind and points it at new text. They live as long as the thread. */
static _Thread_local UBreakIterator *line_iterator;
static _Thread_local UBreakIterator *character_iterator;

static UBreakIterator *iterator(UBreakIterator **slot, UBreakIteratorType type, const char *locale,
                                const uint16_t *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    if (!*slot) {
        *slot = ubrk_open(type, locale, (const UChar *)text, length, &status);
        if (U_FAILURE(status)) { *slot = 0; return 0; }
        return *slot;
    }
    ubrk_setText(*slot, (const UChar *)text, length, &status);
    return U_FAILURE(status) ? 0 : *slot;
}

int32_t layoutd_line_breaks(const uint16_t *text, int32_t length, const char *locale,
                            int32_t *positions, uint8_t *hard, int32_t capacity) {
    UBreakIterator *it = iterator(&line_iterator, UBRK_LINE, locale, text, length);
    if (!it) return -1;
    int32_t count = collect(it, positions, hard, capacity);
    /* Drop the iterator's pointer to the caller's text. */
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(it, (const UChar *)u"", 0, &status);
    return count;
}

int32_t layoutd_grapheme_breaks(const uint16_t *text, int32_t length,
                                int32_t *positions, int32_t capacity) {
    UBreakIterator *it = iterator(&character_iterator, UBRK_CHARACTER, "", text, length);
    if (!it) return -1;
    int32_t count = collect(it, positions, 0, capacity);
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(it, (const UChar *)u"", 0, &status);
    return count;
}

int32_t layoutd_bidi_levels(const uint16_t *text, int32_t length, uint8_t paragraph_level,
                            uint8_t *levels) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status)) return -1;
    ubidi_setPara(bidi, (const UChar *)text, length, paragraph_level, 0, &status);
    if (U_FAILURE(status)) { ubidi_close(bidi); return -1; }
    const UBiDiLevel *result = ubidi_getLevels(bidi, &status);
    if (U_FAILURE(status)) { ubidi_close(bidi); return -1; }
    for (int32_t i = 0; i < length; i++) levels[i] = result[i];
    ubidi_close(bidi);
    return length;
}
