#ifndef HERALD_CNCURSES_SHIM_H
#define HERALD_CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

static inline int herald_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int herald_lines(void) { return LINES; }
static inline int herald_cols(void) { return COLS; }
static inline void herald_getmaxyx(WINDOW *w, int *y, int *x) { int yy, xx; getmaxyx(w, yy, xx); *y = yy; *x = xx; }
static inline unsigned int herald_a_bold(void) { return A_BOLD; }
static inline unsigned int herald_a_dim(void) { return A_DIM; }
static inline unsigned int herald_a_reverse(void) { return A_REVERSE; }
static inline unsigned int herald_a_underline(void) { return A_UNDERLINE; }
static inline unsigned int herald_a_italic(void) { return A_ITALIC; }
static inline unsigned int herald_a_normal(void) { return A_NORMAL; }
static inline int herald_key_resize(void) { return KEY_RESIZE; }
static inline int herald_key_mouse(void) { return KEY_MOUSE; }
static inline int herald_get_wch(wint_t *ch) { return get_wch(ch); }
#endif
