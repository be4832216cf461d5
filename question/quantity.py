"""A measure a rule sets is looked up, not calculated: "How much matzah must one eat at the Seder?" asks for the
quantity the sources give (a kezayit), and nothing in it is a figure to compute with. The classifier reads "how
much" as arithmetic; a question that asks what one must, should or may do, and gives no figure, is a lookup.
Does not: touch a question that gives a figure ("must one wait 6 hours ...") or counts ("two each, in all?"), or
any label but calculation.
"""
import re

OBLIGED = re.compile(r"\b(?:must|should|need|needs|required|obliged|obligated|supposed to|ha(?:ve|s) to|may|allowed)\b"
                     r"|חייב|חייבת|חייבים|צריך|צריכה|צריכים|מותר|שיעור", re.I)
FIGURE = re.compile(r"\d")
# words that make figures of a question to compute with, though written as words ("two matzot each, in all?")
ARITHMETIC = re.compile(r"\b(?:total|altogether|in all|combined|sum|each|per|average|times|more than|less than)\b"
                        r"|בסך הכול|בסך הכל|סך הכול|ביחד|לאדם|לכל|כל אחד|ממוצע", re.I)


def settled(question: str, query_type: str) -> str:
    """The query type, a calculation that asks for a measure a rule sets made a factual lookup."""
    if query_type == "calculation" and OBLIGED.search(question) and not (
            FIGURE.search(question) or ARITHMETIC.search(question)):
        return "factual_lookup"
    return query_type
