"""Arithmetic lines of an answer checked: the computation is right, and every figure in it was cited or asked.

An answer to a calculation question ends with a line such as "1776 − 1492 = 284 years." or
"1989 − (−753) − 1 = 2741 years.": numbers, + − × ÷ and parentheses, "=", the result and at most three words of
unit. Such a line cites nothing; it stands when its left side evaluates to its result (to the rounding shown)
and each of its figures stands in a claim that holds, or in the question (a 1 may be the correction for the
missing year 0).
Does not: evaluate anything but this small grammar (no names, no functions).
"""
import ast
import operator
import re

import regex

LINE = re.compile(r"^(?P<left>[-−+×x*/÷().,\d\s]+)=\s*(?P<result>[-−]?[\d,]+(?:\.\d+)?)(?P<unit>(?:\s+[^\d\s=]+){0,3})\s*\.?$")
SYMBOLS = str.maketrans({"−": "-", "×": "*", "x": "*", "÷": "/", ",": ""})
OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
             ast.USub: operator.neg, ast.UAdd: operator.pos}
MAX_LINE = 200  # characters of the left side: a computation of a few figures, not a program
NUMBER = regex.compile(r"(?<![\p{L}\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
                       r"(?:\s*(?P<scale>thousand|million|billion|trillion)\b)?"
                       r"(?:\s*(?P<bc>B\.C\.E\.|BCE|B\.C\.|BC|לפנה[\"״]ס|לפני הספירה))?(?![\p{L}\d])", regex.I)
SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def numbers(text: str) -> list[tuple[float, int]]:
    """(value, position) of each number in text: "14 million" is 14,000,000, and a year BC or BCE is negative."""
    found = []
    for match in NUMBER.finditer(text):
        value = float(match[1].replace(",", "")) * SCALES.get((match["scale"] or "").casefold(), 1)
        found.append((-value if match["bc"] else value, match.start()))
    return found


def is_arithmetic(text: str) -> bool:
    """Whether a line of an answer is a computation (see the module docstring)."""
    match = LINE.match(text.strip())
    return bool(match) and bool(re.search(r"[-−+×x*/÷]", match["left"].strip().lstrip("-−(")))


def evaluate(expression: str) -> float:
    """The value of an expression of numbers, + - * / and parentheses; ValueError for anything else."""
    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
            return OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in OPERATORS:
            return OPERATORS[type(node.op)](value(node.operand))
        raise ValueError("not arithmetic")

    if len(expression) > MAX_LINE:
        raise ValueError("too long")
    try:
        return float(value(ast.parse(expression.translate(SYMBOLS), mode="eval").body))
    except (SyntaxError, ArithmeticError, RecursionError, MemoryError) as exc:
        raise ValueError("not arithmetic") from exc


def figures(text: str) -> set[float]:
    """The size of each number written in text, read as numbers() reads the passages ("14 million")."""
    return {abs(value) for value, _ in numbers(text)}


def holds(line: str, given: str) -> bool:
    """Whether the computation on line is right and its figures are all in given (the claims that hold, the question)."""
    match = LINE.match(line.strip())
    if not match:
        return False
    try:
        left = evaluate(match["left"])
    except ValueError:
        return False
    result = float(match["result"].translate(SYMBOLS))
    decimals = len(match["result"].partition(".")[2])
    error = abs(left - result)  # the result as shown: rounded to its decimals, and within half a percent
    if error > 0.5 * 10 ** -decimals + 1e-9 or error > 0.005 * abs(left):
        return False
    known = figures(given)
    return all(f in known or f == 1 for f in figures(match["left"]))
