# cmake -DIN=file.txt -DOUT=file.c -DNAME=symbol -P embed_text.cmake
# Writes `const char NAME[]` holding IN's bytes and a terminating NUL, so a data
# file ships inside the binary (hex, so no character needs escaping).
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n  " bytes "${bytes}")
file(WRITE ${OUT} "/* Generated from ${IN} by embed_text.cmake; do not edit. */\nconst char ${NAME}[] = {\n  ${bytes}0};\n")
