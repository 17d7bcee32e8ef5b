def evaluate_offline(inputs, outputs, expected):
    return sorted(outputs) == sorted(expected)
