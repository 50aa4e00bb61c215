/* ICU's C headers; Swift calls them through CTextShim, whose names carry no version suffix. */
#include <unicode/ubrk.h>
#include <unicode/ubidi.h>
