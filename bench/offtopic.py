"""Ordinary requests to a chat assistant that no LoCoMo conversation holds anything about.

Recall runs on every message, so each of these is a chance to inject memories that have
nothing to do with it. They hold no personal facts; some are short, some long, some are
typed carelessly, as people do.
"""

from __future__ import annotations

OFF_TOPIC: tuple[str, ...] = (
    "Write a haiku about autumn.",
    "Explain quicksort and its average time complexity.",
    "convert 5 miles to km",
    "What's a good name for a python variable holding a list of users?",
    "How do I reverse a singly linked list in C? Please show the code.",
    "What is the difference between TCP and UDP?",
    "Summarise the causes of the French Revolution in three bullet points.",
    'Translate "where is the train station?" into German.',
    "what's 17% of 2340",
    "Give me a regular expression that matches an ISO 8601 date like 2024-03-15.",
    "Why is the sky blue?",
    "Explain the difference between a list and a tuple in Python.",
    "Write a SQL query that returns the second highest salary from an employees table.",
    "What does HTTP status code 418 mean?",
    "how do i undo the last git commit but keep the changes",
    'Can you proofread this: "Their going to the meeting tomorow, aren\'t they?"',
    "What is the capital of Australia?",
    "Explain big-O notation like I'm twelve.",
    "Write a limerick about a forgetful robot.",
    "How does public-key cryptography work, in simple terms?",
    "What's the derivative of x^3 * sin(x)?",
    "Suggest unit tests for a function that decides whether a year is a leap year.",
    "how to center a div",
    "What is the boiling point of water at the top of Mount Everest?",
    "Convert 72 degrees Fahrenheit to Celsius.",
    "Explain what a Docker volume is and when to use one instead of a bind mount.",
    "Which is larger, 2^64 or 10^19?",
    "Rewrite this in a more formal tone: hey, just checking if the quarterly report is done "
    "yet, we kinda need it by friday for the board thing.",
    "What are the main differences between mitosis and meiosis?",
    'Give me three synonyms for "quickly".',
    "What's the time complexity of inserting into a binary heap?",
    "Explain the Monty Hall problem and why switching doors is the better strategy.",
    "Write a bash one-liner that counts the lines in every .py file under the current directory.",
    "What does the Rust borrow checker actually check?",
    "How many seconds are there in a leap year?",
    'When do I use "affect" and when "effect"?',
    "Explain how a hash table handles collisions.",
    "Explain the plot of Hamlet in one paragraph.",
    "Draft a polite email declining a meeting invitation because of a scheduling conflict.",
    "State the Pythagorean theorem and give a worked example.",
    "List the planets of the solar system in order from the sun.",
    "How do I read a CSV file with pandas and drop the rows with missing values?",
    "What's the difference between RAM and disk storage?",
    "Define entropy in information theory.",
    "Explain the CAP theorem with an example of a database that chooses availability.",
    "What is a closure in JavaScript? Give a short example.",
    "factor x^2 - 5x + 6",
    "Write a short product description for a stainless steel water bottle that keeps "
    "drinks cold for 24 hours.",
    "Roughly what is the population of Canada?",
    "How do mRNA vaccines train the immune system?",
    "How do I convert a string to an integer in Go, and what happens if it isn't a number?",
    "What's the keyboard shortcut to reopen a closed tab in most browsers?",
    "Describe the water cycle for a primary school worksheet.",
    "Why does python say ModuleNotFoundError: No module named 'requests' when I run my script?",
    "What is the difference between weather and climate?",
    "Tell me a fun fact about octopuses.",
    "Explain compound interest with an example: 1000 at 5% a year for 10 years.",
    "Write a regex to validate a UK postcode.",
    "thanks, that's all for now",
    "Can you make this faster?\n\ndef total(n):\n    return sum([i * i for i in range(n)])",
    "What are the rules for castling in chess?",
    "Explain precision and recall in machine learning, and when you would favour one.",
    "ok",
    "I'm getting 'TypeError: cannot read properties of undefined (reading map)' in my React "
    "component when the API call hasn't returned yet. The component renders items.map(...) "
    "straight from the state, which starts as undefined. What is the usual way to handle "
    "this, and should I use a loading flag or a default empty array?",
)
