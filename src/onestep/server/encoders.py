"""The server's audio formats: the one encoder module is :mod:`onestep.runtime.encoders` (the CLI uses it too)."""

from onestep.runtime.encoders import (  # noqa: F401 - re-exported for the server's modules
    INLINE_FORMATS,
    MEDIA_TYPES,
    StreamEncoder,
    UnsupportedFormatError,
    check_bitrate,
    encode_file,
    make_encoder,
    supported_formats,
    wav_header,
)
from onestep.runtime.encoders import check_format as check_encoding  # noqa: F401
