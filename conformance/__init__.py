"""conformance: replay edge-case chat histories against LLM providers through their
official SDKs (live, from cassettes, or on loopback emulators) and publish how strict each
provider is."""

__version__ = "0.1.0"
