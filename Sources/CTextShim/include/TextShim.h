#ifndef LAYOUTD_TEXT_SHIM_H
#define LAYOUTD_TEXT_SHIM_H
#include <stdint.h>

/* The few ICU calls LayoutText needs, under names without ICU's version suffix
   (ICU's headers rename ubrk_open to ubrk_open_72 and so on with macros, which Swift does not
   see). Text is UTF-16. Every function returns a count >= 0, or -1 when ICU reports an error
   or `capacity` is too small. */

/* Line break opportunities (UAX #14) for `locale`: each position after which a line may end,
   in increasing order, the text's end included. `hard[i]` is 1 where the break is forced
   (after a newline). The locale is read on a thread's first call only. */
int32_t layoutd_line_breaks(const uint16_t *text, int32_t length, const char *locale,
                            int32_t *positions, uint8_t *hard, int32_t capacity);

/* Grapheme cluster boundaries (UAX #29), the text's end included. */
int32_t layoutd_grapheme_breaks(const uint16_t *text, int32_t length,
                                int32_t *positions, int32_t capacity);

/* Bidi embedding levels (UAX #9) of each UTF-16 unit, for a paragraph of base level
   `paragraph_level` (0 left to right, 1 right to left). Returns `length`, or -1. */
int32_t layoutd_bidi_levels(const uint16_t *text, int32_t length, uint8_t paragraph_level,
                            uint8_t *levels);

#endif
