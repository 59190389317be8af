#!/bin/sh
# Remove Koi-Koi Desktop installed by install.sh for the current user.
#
# Removes the program folder ${XDG_DATA_HOME:-~/.local/share}/koikoi-desktop-app, the menu entry,
# the icons, the AppStream metadata and the ~/.local/bin/koikoi-desktop link (only if it is our
# link). It never touches the player's own files — settings, ledger and autosave in
# ~/.local/share/koikoi-desktop (or $KOIKOI_DATA_DIR) stay, so a later install finds them again.
set -eu

APP_ID=io.github.koikoi_desktop.KoiKoiDesktop
EXE_NAME=koikoi-desktop
ICON_NAME=koikoi-desktop
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
APP_DIR=$DATA_HOME/koikoi-desktop-app
BIN_DIR=$HOME/.local/bin

case $DATA_HOME in
  /*) ;;
  *) echo "uninstall.sh: XDG_DATA_HOME must be an absolute path (got '$DATA_HOME')" >&2; exit 1 ;;
esac

rm -f "$DATA_HOME/applications/$APP_ID.desktop"
rm -f "$DATA_HOME/metainfo/$APP_ID.metainfo.xml"
for f in "$DATA_HOME"/icons/hicolor/*/apps/"$ICON_NAME".png \
         "$DATA_HOME"/icons/hicolor/*/apps/"$ICON_NAME".svg; do
  rm -f "$f"  # an unmatched pattern names no file: rm -f ignores it
done
if [ -L "$BIN_DIR/$EXE_NAME" ]; then
  case $(readlink "$BIN_DIR/$EXE_NAME") in
    "$APP_DIR"/*) rm -f "$BIN_DIR/$EXE_NAME" ;;
  esac
fi
# The program folder: only ever this exact folder (never the player's koikoi-desktop data).
case $APP_DIR in
  */koikoi-desktop-app) rm -rf "$APP_DIR" "$APP_DIR.new" ;;
esac

# The folders install.sh made, when nothing else is left in them (another program's files and
# the folders holding them stay): an icon theme with only its cache left is ours to remove too.
hicolor=$DATA_HOME/icons/hicolor
for dir in "$hicolor"/*/apps; do
  if [ -d "$dir" ] && rmdir "$dir" 2>/dev/null; then rmdir "$(dirname "$dir")" 2>/dev/null || true; fi
done
if [ -d "$hicolor" ] && [ "$(ls -A "$hicolor")" = "icon-theme.cache" ]; then
  rm -f "$hicolor/icon-theme.cache"
fi
if [ -f "$DATA_HOME/applications/mimeinfo.cache" ] &&
   [ "$(ls -A "$DATA_HOME/applications")" = "mimeinfo.cache" ]; then
  rm -f "$DATA_HOME/applications/mimeinfo.cache"
fi
for dir in "$hicolor" "$DATA_HOME/icons" "$DATA_HOME/applications" "$DATA_HOME/metainfo" "$BIN_DIR"; do
  if [ -d "$dir" ]; then rmdir "$dir" 2>/dev/null || true; fi
done

if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$DATA_HOME/applications" ]; then
  update-desktop-database -q "$DATA_HOME/applications" 2>/dev/null || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -d "$hicolor" ]; then
  gtk-update-icon-cache -q -t -f "$hicolor" 2>/dev/null || true
fi

echo "Koi-Koi Desktop was removed."
echo "Your settings and ledger are kept in ${KOIKOI_DATA_DIR:-$DATA_HOME/koikoi-desktop}."
