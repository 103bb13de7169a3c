"""The server's audio formats: the one encoder module is :mod:`onestep.runtime.encoders` (the CLI uses it too)."""

from onestep.runtime.encoders import (  # noqa: F401 - re-exported for the server's modules
    INLINE_FORMATS,
    MEDIA_TYPES,
    StreamEncoder,
    UnsupportedFormatError,
    encode_file,
    make_encoder,
    supported_formats,
    wav_header,
)
