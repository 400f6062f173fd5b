int darkroom_codecs_placeholder(void);
