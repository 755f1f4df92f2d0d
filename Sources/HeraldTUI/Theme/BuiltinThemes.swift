// Generated from themes/*.toml by scripts/generate.sh (make docs). Do not edit.
/// The built-in themes' text, compiled in so an installed binary works without the themes folder.
nonisolated enum BuiltinThemes {
    static let sources: [String: String] = [
        "default": #"""
# Herald default theme: dark background, 256-colour friendly.
name = "default"
description = "Dark background (the default)"

[roles]
text = { fg = "default", bg = "default" }
muted = { fg = 245 }
accent = { fg = "#5fafff", attrs = ["bold"] }
title = { fg = "#87d7ff", attrs = ["bold"] }
border = { fg = 240 }
border_focused = { fg = "#5fafff" }
selection = { fg = "#ffffff", bg = "#005f87" }
selection_inactive = { fg = "default", bg = 237 }
header = { fg = "#87afd7", attrs = ["bold", "underline"] }
cursor = { attrs = ["reverse"] }
input = { fg = "default", bg = 235 }
placeholder = { fg = 242, bg = 235, attrs = ["italic"] }
highlight = { fg = "#ffd75f", attrs = ["bold"] }
changed = { fg = "#ffaf5f", attrs = ["bold"] }
status_bar = { fg = 252, bg = 236 }
status_bar_key = { fg = "#ffd75f", bg = 236, attrs = ["bold"] }
tab_active = { fg = "#ffffff", bg = "#005f87", attrs = ["bold"] }
tab_inactive = { fg = 248, bg = 236 }
toast_info = { fg = "#ffffff", bg = "#005f87" }
toast_warning = { fg = "#000000", bg = "#ffaf00" }
toast_error = { fg = "#ffffff", bg = "#af0000", attrs = ["bold"] }
modal = { fg = "default", bg = 236 }
button = { fg = 252, bg = 238 }
button_focused = { fg = "#ffffff", bg = "#005f87", attrs = ["bold"] }
status_delivered = { fg = "#5fd75f" }
status_pending = { fg = "#ffd75f" }
status_failed = { fg = "#ff5f5f" }
progress_empty = { fg = 238, bg = 236 }
error = { fg = "#ff5f5f", attrs = ["bold"] }
warning = { fg = "#ffaf00" }
success = { fg = "#5fd75f" }
"""#,
        "high-contrast": #"""
# Herald high-contrast theme: the 16 basic colours only, bright on black.
name = "high-contrast"
description = "High contrast, 16 colours"

[roles]
text = { fg = "bright_white", bg = "black" }
muted = { fg = "white" }
accent = { fg = "bright_yellow", attrs = ["bold"] }
title = { fg = "bright_white", attrs = ["bold", "underline"] }
border = { fg = "bright_white" }
border_focused = { fg = "bright_yellow", attrs = ["bold"] }
selection = { fg = "black", bg = "bright_yellow", attrs = ["bold"] }
selection_inactive = { fg = "black", bg = "white" }
header = { fg = "bright_cyan", attrs = ["bold", "underline"] }
cursor = { attrs = ["reverse"] }
input = { fg = "bright_white", bg = "black", attrs = ["underline"] }
placeholder = { fg = "white", bg = "black", attrs = ["italic"] }
highlight = { fg = "bright_cyan", attrs = ["bold"] }
changed = { fg = "bright_magenta", attrs = ["bold"] }
status_bar = { fg = "black", bg = "bright_white" }
status_bar_key = { fg = "blue", bg = "bright_white", attrs = ["bold"] }
tab_active = { fg = "black", bg = "bright_yellow", attrs = ["bold"] }
tab_inactive = { fg = "bright_white", bg = "black" }
toast_info = { fg = "black", bg = "bright_cyan", attrs = ["bold"] }
toast_warning = { fg = "black", bg = "bright_yellow", attrs = ["bold"] }
toast_error = { fg = "bright_white", bg = "red", attrs = ["bold"] }
modal = { fg = "bright_white", bg = "black" }
button = { fg = "bright_white", bg = "black", attrs = ["reverse"] }
button_focused = { fg = "black", bg = "bright_yellow", attrs = ["bold"] }
status_delivered = { fg = "bright_green", attrs = ["bold"] }
status_pending = { fg = "bright_yellow", attrs = ["bold"] }
status_failed = { fg = "bright_red", attrs = ["bold"] }
progress_empty = { fg = "white", bg = "black" }
error = { fg = "bright_red", attrs = ["bold"] }
warning = { fg = "bright_yellow", attrs = ["bold"] }
success = { fg = "bright_green", attrs = ["bold"] }
"""#,
        "light": #"""
# Herald light theme: dark text on a light background it paints itself (so it reads the same on a dark terminal).
name = "light"
description = "Light background"

[roles]
text = { fg = "#262626", bg = "#fcfcfc" }
muted = { fg = 244 }
accent = { fg = "#005faf", attrs = ["bold"] }
title = { fg = "#005f87", attrs = ["bold"] }
border = { fg = 249 }
border_focused = { fg = "#005faf" }
selection = { fg = "#000000", bg = "#afd7ff" }
selection_inactive = { fg = "#262626", bg = 254 }
header = { fg = "#005f87", attrs = ["bold", "underline"] }
cursor = { attrs = ["reverse"] }
input = { fg = "#262626", bg = 255 }
placeholder = { fg = 246, bg = 255, attrs = ["italic"] }
highlight = { fg = "#af5f00", attrs = ["bold"] }
changed = { fg = "#d75f00", attrs = ["bold"] }
status_bar = { fg = "#262626", bg = 252 }
status_bar_key = { fg = "#005faf", bg = 252, attrs = ["bold"] }
tab_active = { fg = "#ffffff", bg = "#005faf", attrs = ["bold"] }
tab_inactive = { fg = 240, bg = 252 }
toast_info = { fg = "#ffffff", bg = "#005faf" }
toast_warning = { fg = "#000000", bg = "#ffd75f" }
toast_error = { fg = "#ffffff", bg = "#d70000", attrs = ["bold"] }
modal = { fg = "#262626", bg = 254 }
button = { fg = "#262626", bg = 251 }
button_focused = { fg = "#ffffff", bg = "#005faf", attrs = ["bold"] }
status_delivered = { fg = "#008700" }
status_pending = { fg = "#af8700" }
status_failed = { fg = "#d70000" }
progress_empty = { fg = 250, bg = 252 }
error = { fg = "#d70000", attrs = ["bold"] }
warning = { fg = "#af5f00" }
success = { fg = "#008700" }
"""#,
        "monochrome": #"""
# Herald monochrome theme: no colours at all, only attributes.
name = "monochrome"
description = "No colours, attributes only"

[roles]
text = {}
muted = { attrs = ["dim"] }
accent = { attrs = ["bold"] }
title = { attrs = ["bold"] }
border = {}
border_focused = { attrs = ["bold"] }
selection = { attrs = ["reverse"] }
selection_inactive = { attrs = ["underline"] }
header = { attrs = ["bold", "underline"] }
cursor = { attrs = ["reverse"] }
input = { attrs = ["underline"] }
placeholder = { attrs = ["dim", "underline"] }
highlight = { attrs = ["bold", "underline"] }
changed = { attrs = ["bold"] }
status_bar = { attrs = ["reverse"] }
status_bar_key = { attrs = ["reverse", "bold"] }
tab_active = { attrs = ["reverse", "bold"] }
tab_inactive = {}
toast_info = { attrs = ["reverse"] }
toast_warning = { attrs = ["reverse", "bold"] }
toast_error = { attrs = ["reverse", "bold", "underline"] }
modal = {}
button = {}
button_focused = { attrs = ["reverse", "bold"] }
status_delivered = {}
status_pending = { attrs = ["dim"] }
status_failed = { attrs = ["bold"] }
progress_empty = { attrs = ["dim"] }
error = { attrs = ["bold"] }
warning = { attrs = ["bold"] }
success = {}
"""#,
        "solarized": #"""
# Herald solarized theme: Ethan Schoonover's Solarized dark palette.
name = "solarized"
description = "Solarized dark"

[roles]
text = { fg = "#839496", bg = "#002b36" }
muted = { fg = "#586e75" }
accent = { fg = "#268bd2", attrs = ["bold"] }
title = { fg = "#2aa198", attrs = ["bold"] }
border = { fg = "#586e75" }
border_focused = { fg = "#268bd2" }
selection = { fg = "#fdf6e3", bg = "#073642", attrs = ["bold"] }
selection_inactive = { fg = "#93a1a1", bg = "#073642" }
header = { fg = "#93a1a1", attrs = ["bold", "underline"] }
cursor = { attrs = ["reverse"] }
input = { fg = "#93a1a1", bg = "#073642" }
placeholder = { fg = "#586e75", bg = "#073642", attrs = ["italic"] }
highlight = { fg = "#b58900", attrs = ["bold"] }
changed = { fg = "#cb4b16", attrs = ["bold"] }
status_bar = { fg = "#93a1a1", bg = "#073642" }
status_bar_key = { fg = "#b58900", bg = "#073642", attrs = ["bold"] }
tab_active = { fg = "#fdf6e3", bg = "#268bd2", attrs = ["bold"] }
tab_inactive = { fg = "#839496", bg = "#073642" }
toast_info = { fg = "#fdf6e3", bg = "#268bd2" }
toast_warning = { fg = "#002b36", bg = "#b58900" }
toast_error = { fg = "#fdf6e3", bg = "#dc322f", attrs = ["bold"] }
modal = { fg = "#93a1a1", bg = "#073642" }
button = { fg = "#93a1a1", bg = "#586e75" }
button_focused = { fg = "#fdf6e3", bg = "#268bd2", attrs = ["bold"] }
status_delivered = { fg = "#859900" }
status_pending = { fg = "#b58900" }
status_failed = { fg = "#dc322f" }
progress_empty = { fg = "#586e75", bg = "#073642" }
error = { fg = "#dc322f", attrs = ["bold"] }
warning = { fg = "#cb4b16" }
success = { fg = "#859900" }
"""#,
    ]
}
