#!/usr/bin/python3
"""mail_gate_result.py MESSAGE.eml RESULT — read with Python's email
package: prints two booleans, whether the Subject has "gate: RESULT" and
whether the text/plain body has "Gate:  RESULT"."""
import email
import email.policy
import sys

m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
body = m.get_body(preferencelist=("plain",)).get_content()
print(("gate: " + sys.argv[2]) in m["Subject"], ("Gate:  " + sys.argv[2]) in body)
