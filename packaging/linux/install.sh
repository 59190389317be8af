#!/bin/sh
# Install Koi-Koi Desktop for the current user (no root, no terminal needed afterwards).
#
# Run it from the unpacked bundle:  ./install.sh
#
# What it does:
#   * copies this bundle to ${XDG_DATA_HOME:-~/.local/share}/koikoi-desktop-app/
#     (replacing an earlier copy there);
#   * writes the menu entry ~/.local/share/applications/io.github.koikoi_desktop.KoiKoiDesktop.desktop
#     with the absolute path of the installed program, so the game appears in the desktop's menu
#     (Games) and starts by double-click;
#   * installs the icon into the hicolor theme (~/.local/share/icons/hicolor/<size>/apps/) and the
#     AppStream metadata into ~/.local/share/metainfo/;
#   * links ~/.local/bin/koikoi-desktop to the program (for starting it from a terminal);
#   * refreshes the desktop and icon caches when their tools are installed.
# The player's own files (settings, ledger, autosave in ~/.local/share/koikoi-desktop) are
# separate and are never touched; uninstall.sh removes everything listed above and nothing else.
set -eu

APP_ID=io.github.koikoi_desktop.KoiKoiDesktop
EXE_NAME=koikoi-desktop
SRC=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd -P)
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
APP_DIR=$DATA_HOME/koikoi-desktop-app
BIN_DIR=$HOME/.local/bin

case $DATA_HOME in
  /*) ;;
  *) echo "install.sh: XDG_DATA_HOME must be an absolute path (got '$DATA_HOME')" >&2; exit 1 ;;
esac
case $APP_DIR in
  *[\"\`\$\\%]*|*"
"*)
    echo "install.sh: cannot install into '$APP_DIR' (quote, \$, \\ or % in the path);" >&2
    echo "  set XDG_DATA_HOME to a plainer folder and run it again." >&2
    exit 1 ;;
esac
if [ ! -x "$SRC/$EXE_NAME" ] || [ ! -d "$SRC/share" ]; then
  echo "install.sh: run me from the unpacked koikoi-desktop folder ($SRC has no $EXE_NAME)" >&2
  exit 1
fi

# 1. The program: copy next to the final place, then swap it in.
if [ "$SRC" != "$APP_DIR" ]; then
  mkdir -p "$DATA_HOME"
  rm -rf "$APP_DIR.new"
  cp -a "$SRC" "$APP_DIR.new"
  rm -rf "$APP_DIR"
  mv "$APP_DIR.new" "$APP_DIR"
fi
EXE=$APP_DIR/$EXE_NAME

# 2. The menu entry, with the absolute path (quoted for the Exec key).
sed_escape() { printf '%s' "$1" | sed -e 's/[&|\\]/\\&/g'; }
mkdir -p "$DATA_HOME/applications"
sed -e "s|^TryExec=.*|TryExec=$(sed_escape "$EXE")|" \
    -e "s|^Exec=.*|Exec=\"$(sed_escape "$EXE")\"|" \
    -e "/^# install.sh writes/d" \
    "$APP_DIR/share/applications/$APP_ID.desktop" > "$DATA_HOME/applications/$APP_ID.desktop"
chmod 644 "$DATA_HOME/applications/$APP_ID.desktop"

# 3. Icons and AppStream metadata.
for dir in "$APP_DIR"/share/icons/hicolor/*/apps; do
  size=$(basename "$(dirname "$dir")")
  mkdir -p "$DATA_HOME/icons/hicolor/$size/apps"
  cp "$dir"/* "$DATA_HOME/icons/hicolor/$size/apps/"
done
mkdir -p "$DATA_HOME/metainfo"
cp "$APP_DIR/share/metainfo/$APP_ID.metainfo.xml" "$DATA_HOME/metainfo/"

# 4. A command for the terminal (an existing file that is not our link is left alone).
mkdir -p "$BIN_DIR"
if [ -L "$BIN_DIR/$EXE_NAME" ] || [ ! -e "$BIN_DIR/$EXE_NAME" ]; then
  ln -sf "$EXE" "$BIN_DIR/$EXE_NAME"
fi

# 5. Caches (optional tools; the desktop also notices new files by itself).
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$DATA_HOME/applications" 2>/dev/null || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1; then
  gtk-update-icon-cache -q -t -f "$DATA_HOME/icons/hicolor" 2>/dev/null || true
fi

echo "Koi-Koi Desktop is installed in $APP_DIR."
echo "Start it from your desktop's menu (Games > Koi-Koi Desktop) or with: $EXE"
echo "To remove it: $APP_DIR/uninstall.sh"
