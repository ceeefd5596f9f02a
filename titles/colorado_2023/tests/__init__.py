"""Colorado' own tests (every title also runs the conformance suite,
``tests/conformance/``)."""
