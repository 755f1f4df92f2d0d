#ifndef HERALD_CNCURSES_SHIM_H
#define HERALD_CNCURSES_SHIM_H
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>
#include <sys/ioctl.h>
#include <unistd.h>

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
/* Function keys and mouse masks are function-like macros; Swift needs functions. */
static inline int herald_key_f(int n) { return KEY_F(n); }
static inline int herald_key_code_yes(void) { return KEY_CODE_YES; }
static inline int herald_colors(void) { return COLORS; }
static inline int herald_color_pairs(void) { return COLOR_PAIRS; }
static inline mmask_t herald_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t herald_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t herald_button3_pressed(void) { return BUTTON3_PRESSED; }
static inline mmask_t herald_button3_clicked(void) { return BUTTON3_CLICKED; }
static inline mmask_t herald_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t herald_button5_pressed(void) { return BUTTON5_PRESSED; }

/* Writes one cell: up to CCHARW_MAX wide characters (a grapheme), attributes and an extended pair. */
static inline int herald_put_cell(WINDOW *w, int y, int x, const wchar_t *text, attr_t attrs, int pair) {
    cchar_t cc;
    if (setcchar(&cc, text, attrs, 0, &pair) == ERR) return ERR;
    return mvwadd_wch(w, y, x, &cc);
}

/* The size of the terminal on descriptor fd, from the kernel (after SIGWINCH). */
static inline int herald_winsize(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row; *cols = ws.ws_col;
    return 0;
}
static inline int herald_ccharw_max(void) { return CCHARW_MAX; }
static inline WINDOW *herald_stdscr(void) { return stdscr; }
/* newterm on the process's stdout/stdin (globals Swift 6 may not touch); NULL when the terminal is unusable. */
static inline SCREEN *herald_newterm(void) { return newterm(NULL, stdout, stdin); }
#endif
