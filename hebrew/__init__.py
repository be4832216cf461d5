"""Hebrew and Aramaic text: script detection, the text normaliser, the analyzer, the glossary, references."""
