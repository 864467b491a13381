"""torch's argument-parser messages as the call was written.

torch's parser numbers a refused argument by where the caller put it: a Tensor method does not
count ``self`` (``x.chunk(2.5)`` says position 1, ``torch.chunk(x, 2.5)`` position 2), and an
argument given by keyword has no position at all. Its "invalid combination" message lists the
types the caller passed, keywords by name, and marks the mismatched ones under each signature
that takes that many arguments. A minitorch op receives its arguments bound to parameters and
cannot tell how they came, so it words its refusals for the function form with every argument
positional; :func:`entry` wraps a public function or method and, only when a TypeError passes
through it, rewrites such a message for the call that was made.

>>> import minitorch
>>> minitorch.ones(3).chunk(2.5)
Traceback (most recent call last):
TypeError: chunk(): argument 'chunks' (position 1) must be int, not float
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from . import _args, _batched_function, overrides
from ._batched_function import vmapped
from .overrides import _state as _overriding

_ARGUMENT = re.compile(r"(\w+)\(\): argument '(\w+)'(?: \(position (\d+)\))? (.*)", re.S)
_TAKES = re.compile(r"(\w+)\(\) takes (?:from (\d+) to )?(\d+) positional arguments? but (\d+) "
                    r"(?:positional arguments? \(and \d+ keyword-only arguments?\) )?"
                    r"(?:were|was) given")
_MISSING = re.compile(r'(\w+)\(\) missing \d+ required positional arguments?: ".*')
_ELEMENT = re.compile(r"(must be .*), but found element of type \S+ at pos \d+")
_TENSOR_ELEMENT = re.compile(r"expected Tensor as element (\d+) in argument (\d+)(, but got .*)",
                             re.S)
_MULTIPLE = re.compile(r"(\w+)\(\) got multiple values for argument '\w+'")
# Python's own refusals of a call's arguments (the function named by its qualified name)
_PYTHON_TAKES = re.compile(r"\S+\(\) takes (?:from \d+ to )?(\d+) positional arguments? but "
                           r"(\d+) (?:positional arguments? \(and \d+ keyword-only "
                           r"arguments?\) )?(?:were|was) given")
_PYTHON_MISSING = re.compile(r"\S+\(\) missing \d+ required (?:positional|keyword-only) "
                             r"arguments?: '(\w+)'.*")
_UNEXPECTED = re.compile(r"\S+\(\) got an unexpected keyword argument '(\w+)'")
_COMBINATION = re.compile(r"(\w+)\(\) received an invalid combination of arguments - ")


def entry(fn: Callable, name: str, method: bool) -> Callable:
    """``fn`` as the public ``name`` (a Tensor method where ``method``), taking numpy's names
    of its parameters as torch's parser does (:func:`numpy_keywords`; not for the functions
    torch writes in Python), its parser refusals reworded for the call that was made.

    >>> def chunk(input, chunks, dim=0):
    ...     raise TypeError("chunk(): argument 'chunks' (position 2) must be int, not float")
    >>> entry(chunk, "chunk", method=False)(None, chunks=2.5)
    Traceback (most recent call last):
    TypeError: chunk(): argument 'chunks' must be int, not float
    """
    forwarders = _forwarders(fn)
    parsed = name not in (PYTHON_METHODS if method else PYTHON_FUNCTIONS)
    varargs = method and getattr(fn, "int_varargs", False)
    inplace = method and name.endswith("_") and not name.startswith("_")
    writes = name.endswith("_") and not name.startswith("_") and \
        name not in ("share_memory_", "requires_grad_")  # (no write into the tensor)
    overloaded = bool(getattr(fn, "torch_signatures", ()))  # (an empty list: none declared)
    hidden = getattr(fn, "torch_hidden", False)
    alone = getattr(fn, "keyword_alone", None)
    signatures = getattr(fn, "torch_signatures", ())
    api_name = f"torch.Tensor.{name}" if method else _api_name(name)
    learned: _Signature | None = None  # read at the first call, not at import

    @functools.wraps(fn)
    def called(*args: Any, **kwargs: Any) -> Any:
        nonlocal learned
        learned = learned or _Signature.of(fn, name, method, parsed)
        (parameters, var_values, self_keywords, positional, required_all, required, out_stray,
         numpy_names, positional_only) = learned
        written = args  # (torch's messages list the arguments as the caller wrote them)
        if varargs and len(args) >= 2:
            args = _packed_ints(args)
        if alone in kwargs and len(args) > 1:  # no overload takes it with positional options
            raise TypeError(_alone_refusal(name, args[1:] if method else args, kwargs,
                                           method_signatures(list(signatures)) if method
                                           else list(signatures)))
        captures = writes and _batched_function.level() and binds(fn, args, kwargs)
        if inplace and vmapped() and binds(fn, args, kwargs):  # (the parser's errors first)
            from ._batched import refuse_inplace, refused_by_kernel

            if captures and (_batched_function.innermost() != "vmap" or refused_by_kernel(name)):
                # (the grad level's refusal first: the innermost, or the level vmap's batch
                # rule hands the write to)
                _batched_function.refuse_captured(args[0], name, args[1:], kwargs)
            refuse_inplace(name, args[0], args[1:], kwargs)  # a batched value into an
            # unbatched tensor
        if captures:
            from ._batched import draws

            if inplace and vmapped() and _batched_function.innermost() == "vmap" and draws(name):
                _batched_function.check_random()  # (vmap's randomness rule refuses first)
            _batched_function.refuse_captured(args[0], name, args[1:], kwargs)
        given = numpy_keywords(kwargs, parameters, len(args)) \
            if kwargs and not numpy_names.isdisjoint(kwargs) else kwargs
        if overloaded and not method and "self" in given and "self" not in parameters:
            args, given = _number_self(signatures, args, given)
        if _overriding.subclassed and (handled := overrides.dispatch_subclassed(
                called, api_name, args, kwargs)) is not NotImplemented:
            return handled  # a Tensor subclass's __torch_function__ answers
        if overloaded and given and parsed and not hidden and (refused := overload_refusal(
                name, args[method:], given, signatures, method)):  # (hidden: not the only one)
            raise TypeError(refused)  # torch's parser, where minitorch's names would bind
        if overloaded and given and parsed and keyword_fits_none(
                name, given, signatures, method, len(args) - method + len(given)):
            shown = kwargs if not numpy_names.isdisjoint(kwargs) else given  # (as typed)
            raise TypeError(combination_message(name, args[method:], shown, method_signatures(
                list(signatures)) if method else list(signatures)))
        try:
            stray = next((k for k in self_keywords if k in given), None) or \
                ("out" if out_stray and "out" in given else None)  # (no method's)
            rest = {k: v for k, v in given.items() if k != stray}
            if stray and var_values and len(args) == 1 and not rest:
                given = rest  # (its values missing: the parser's refusal of them first)
            elif stray == "self" and name in PYTHON_METHODS:  # (Python's, torch's self)
                raise TypeError(f"Tensor.{name}() got multiple values for argument 'self'")
            elif stray == "out" and not var_values and not binds(fn, args, rest):
                fn(*args, **rest)  # the other arguments' binding refused first (too many,
                # one given twice), as torch's parser reads its parameters before out=
            elif stray and (stray == "out" or var_values or binds(fn, args, rest)):
                raise TypeError(f"{'Tensor.' * (name in PYTHON_METHODS)}{fn.__name__}() got an "
                                f"unexpected keyword argument '{stray}'")  # the tensor, and
                # out=, are no method's keywords
            if overloaded and not given.keys().isdisjoint(positional_only):  # (a Python
                # function's are Python's, as torch's: is_tensor(obj=x))
                args, given = _positional_by_keyword(fn.__name__, positional_only, signatures,
                                                     args, given)
            return fn(*args, **given)
        except ValueError as error:  # a value its parser could not unpack (an int past int64)
            if parsed and (typed := _typed_before(error, fn, name, args, given, method,
                                                  overloaded and signatures)):
                raise TypeError(typed) from None  # torch's parser reads every type first
            raise
        except (TypeError, _batched_function.Unbatched) as error:
            if not writes and _batched_function.has_batched(args, kwargs):  # vmap's op with
                return _batched_function.each_example(called, args, kwargs)  # no rule here
            if not isinstance(error, TypeError):
                raise
            # a tensor-like argument is refused as no Tensor: its __torch_function__ answers
            if (handled := overrides.dispatch_public(
                    called, api_name, args, kwargs)) is not NotImplemented:
                return handled
            if parsed and (typed := _typed_before(error, fn, name, args, given, method,
                                                  overloaded and signatures)):
                raise TypeError(typed) from None
            message = str(error)
            source = getattr(fn, "alias_of", name[:-1] if name.endswith("_") else
                             fn.__name__)  # a function under another name (row_stack, ger)
            if source and message.startswith(f"{source}()"):  # an alias, or an in-place twin,
                message = name + message[len(source):]  # of an op: torch says its own name
            qualified = getattr(fn, "__qualname__", name)  # Python names the op it refused
            if qualified != name and message.startswith(f"{qualified}() ") and \
                    _refused_by_binding(error, forwarders):
                message = name + message[len(qualified):]
            if _refused_by_binding(error, forwarders) and parsed and (typed := (
                    _overload_types_first(name, args[method:], given, signatures, method)
                    if overloaded else types_first(fn, name, args, given, method))):
                raise TypeError(typed) from None  # torch's parser checks types as it binds
            needed = required
            if _refused_by_binding(error, forwarders) and parsed and not overloaded:
                message = _missing_first(message, name, required_all, positional, args, given)
            elif _refused_by_binding(error, forwarders) and parsed and (read := _read_alone(
                    signatures, hidden, len(args) - method + len(given), method)):
                first = [positional[0]] if method else []
                needed = [p[0] for p in read if p[4]]
                message = _missing_first(message, name, first + needed,
                                         first + [p[0] for p in read if not p[3]], args, given)
            if _refused_by_binding(error, forwarders) and parsed:
                message = torch_arity(message, name, method, needed,
                                      bare=method and len(parameters) == 1,
                                      keywords=bool(kwargs)) or message
            elif _refused_by_binding(error, forwarders) and method:
                message = python_method(message, name)
            keyword = _ARGUMENT.fullmatch(message)
            if parsed or not (_COMBINATION.match(message) or (keyword and not (
                    method and keyword[3]))):  # (torch's Python calls its ops its own way,
                # which the op words already; a method's position counts after its tensor)
                message = as_called(message, name, written[1:] if method else written, kwargs,
                                    method, parameters, getattr(fn, "torch_signatures", ()),
                                    keywords=given, positional=positional,
                                    hidden=hidden) or message
            if _refused_by_binding(error, forwarders) and not method:
                message = python_named(message, fn, args, kwargs)
            if _refused_by_binding(error, forwarders):  # Python's refusal of the call, as
                raise TypeError(message) from None  # torch's parser's: the entry refuses it
            if message != str(error):
                error.args = (message,)
            if _refused_by_binding(error, forwarders):
                raise error.with_traceback(None) from None  # this entry refuses, not the op
            raise

    called.op = fn  # type: ignore[attr-defined]  # for a function that forwards to it
    return called


class _Signature(NamedTuple):
    """What an :func:`entry` reads of its function's parameters (once, at its first call:
    read for all of minitorch's thousand entries, it cost every ``import minitorch`` a fifth
    of a second)."""

    parameters: list  # the names, in order
    var_values: bool  # whether it takes ``*values``
    self_keywords: list  # a parsed method's tensor, which Python would bind by its name
    positional: tuple  # see _Parameters
    required_all: tuple
    required: list  # those torch requires (:func:`_torch_required`), a method's self left out
    out_stray: bool  # out= given to a method, which torch's methods never take
    numpy_names: frozenset  # the numpy names it may be given (most: none, the call skips the
    # copy)
    positional_only: list

    @classmethod
    def of(cls, fn: Callable, name: str, method: bool, parsed: bool) -> _Signature:
        """``fn``'s, as the public ``name`` (a Tensor method where ``method``; ``parsed``:
        one torch's argument parser reads, not a function torch writes in Python)."""
        signature = inspect.signature(fn)
        parameters = list(signature.parameters)
        kinds = {p.kind for p in signature.parameters.values()}
        var_values = inspect.Parameter.VAR_POSITIONAL in kinds
        # (torch's Python methods name their tensor self: input is an unknown keyword there;
        # with *values after it, given none, torch's parser finds them missing first; one
        # that reads its keywords itself words its refusal)
        self_keywords = [k for k in ("self", "input") if k not in parameters[1:]] if method \
            and not (var_values and inspect.Parameter.VAR_KEYWORD in kinds) else []
        positional, required_all, taken = _parameters(fn)
        # (one of ``*dims`` reads its keywords itself)
        out_stray = method and name not in PYTHON_METHODS and taken is not None
        numpy_names = frozenset(alias for known, aliases in _NUMPY_NAMES.items() if parsed and
                                known in parameters for alias in aliases
                                if alias not in parameters)
        positional_only = [p.name for p in signature.parameters.values()
                           if p.kind is p.POSITIONAL_ONLY]
        return cls(parameters, var_values, self_keywords, positional, required_all,
                   _torch_required(fn)[method:], out_stray, numpy_names, positional_only)


_UNPACKED = re.compile(r"Overflow when unpacking long long$|.*failed to unpack the object")


def _typed_before(error: Exception, fn: Callable, name: str, args: tuple, kwargs: dict,
                  method: bool, signatures: Any) -> str | None:
    """torch's refusal of an argument's type where minitorch refused another's value as its
    parser unpacks it (an int past int64): torch's parser checks every argument's type before
    it unpacks any value. None for another error, or where every type is right."""
    if not _UNPACKED.match(str(error)):
        return None
    if signatures:
        return _overload_types_first(name, args[method:], kwargs, signatures, method)
    return types_first(fn, name, args, kwargs, method)


def _positional_by_keyword(name: str, positional_only: list, signatures: tuple, args: tuple,
                           given: dict) -> tuple[tuple, dict]:
    """The call's ``args`` and ``given`` keywords as torch's parser, which takes every
    parameter by keyword, reads them: a positional-only parameter of minitorch's that torch's
    ``signatures`` name (``input``), given by keyword in its place, moves there; one they do not
    name is an unknown keyword.

    >>> _positional_by_keyword("f", ["input", "n"], ("Tensor input, int sections",), (),
    ...                        {"input": 1, "sections": 2})
    ((1,), {'sections': 2})
    """
    given = dict(given)
    for i, parameter in enumerate(positional_only):
        if parameter not in given:
            continue
        if len(args) != i or not any(re.search(rf"\b{parameter}\b", s) for s in signatures):
            raise TypeError(f"{name}() got an unexpected keyword argument '{parameter}'")
        args = (*args, given.pop(parameter))
    return args, given


def _number_self(signatures: tuple, args: tuple, given: dict) -> tuple[tuple, dict]:
    """The call's ``args`` and ``given`` keywords with ``self=`` moved to its place, where it is
    a number and one of torch's ``signatures`` takes ``Number self`` there (``pow(self=2,
    exponent=x)``): minitorch's functions name that parameter ``input``.

    >>> _number_self(("Tensor input, Tensor other", "Number self, Tensor other"), (),
    ...              {"self": 2, "other": "x"})
    ((2,), {'other': 'x'})
    """
    number = _PARSER_TYPES["Number"][1]
    for signature in signatures:
        names = [p[0] for p in _signature_parameters(signature)]
        if "self" in names and names.index("self") == len(args) and number(given["self"]):
            value = given["self"]
            given = {k: v for k, v in given.items() if k != "self"}
            return (*args, value.item() if _args.is_tensor(value) else value), given
    return args, given


def _api_name(name: str) -> str:
    """The dotted name torch gives the public function its parser calls ``name``.

    >>> _api_name("linalg_norm"), _api_name("mean")  # torch's linalg functions keep the prefix
    ('torch.linalg.linalg_norm', 'torch.mean')
    """
    for module in ("linalg", "special"):
        if name.startswith(module + "_"):
            return f"torch.{module}.{name}"
    return f"torch.{name}"


def binds(fn: Callable, args: tuple, kwargs: dict) -> bool:
    """Whether Python would bind ``args`` and ``kwargs`` to ``fn``'s parameters."""
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def int_varargs(fn: Callable) -> Callable:
    """Decorator: ``fn(self, dims)`` whose Tensor method, as torch's parser allows where the
    only positional parameter is a tuple of ints, also takes them one by one
    (``x.squeeze(0, 1)``), when the first is an int (see :func:`entry`).

    >>> int_varargs(lambda self, dim=None: dim).int_varargs
    True
    """
    fn.int_varargs = True  # type: ignore[attr-defined]
    return fn


def _packed_ints(args: tuple) -> tuple:
    """A method call's ``(self, d0, d1, ...)`` as ``(self, (d0, d1, ...))`` when ``d0`` is
    an int as torch's parser reads one (a bool is not); ``(self, d0)`` too where ``d0`` is
    not the int that the int overload tried first takes (a 0-d numpy array, a one-element
    tensor that is not 0-d, a bool tensor) but an index; else as it is.

    >>> import numpy as np
    >>> _packed_ints((None, np.array(1))), _packed_ints((None, 1)), _packed_ints((None, 1, 2))
    ((None, (array(1),)), (None, 1), (None, (1, 2)))
    """
    from ._args import as_int, as_param_int

    if as_int(args[1]) is None or (len(args) == 2 and as_param_int(args[1], "dim") is not None):
        return args
    return args[0], args[1:]


# torch's parser takes these numpy names for its parameters of these names
_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"),
                "other": ("x2",)}


def numpy_keywords(kwargs: dict, parameters: list, given: int) -> dict:
    """``kwargs`` as torch's parser reads them for a function of ``parameters`` called with
    ``given`` positional arguments: a parameter among dim, keepdim, input and other not
    given by position nor by its own name takes the first of its numpy names present (the
    others stay, as unexpected keywords).

    >>> numpy_keywords({"axis": 0, "keepdims": True}, ["input", "dim", "keepdim"], 1)
    {'dim': 0, 'keepdim': True}
    >>> numpy_keywords({"axis": 1}, ["input", "dim"], 2)  # dim given by position
    {'axis': 1}
    """
    out = dict(kwargs)
    for name, aliases in _NUMPY_NAMES.items():
        if name in parameters[given:] and name not in out:
            alias = next((a for a in aliases if a in out and a not in parameters), None)
            if alias is not None:
                out[name] = out.pop(alias)
    return out


def as_called(message: str, name: str, args: tuple, kwargs: dict, method: bool,
              parameters: list, signatures: tuple = (), keywords: Any = None,
              positional: list | None = None, hidden: bool = False) -> str | None:
    """``message`` (a refusal of ``name``, the function with ``parameters``) for the call
    ``args``, ``kwargs``; None when it is no parser message of ``name``. An argument passed
    by position is numbered where the caller put it (a method counting from the one after the
    tensor) when it is one of the ``parameters`` (of a method, or of a function with one
    signature); else the message's position is the function form's, and a method's
    is one less unless the op's first parameter is ``self`` (worded for the method already).
    Where the op declares torch's
    ``signatures`` (:func:`overloads`) and none or more than one takes that many arguments,
    torch reports no single argument but the invalid combination (an unknown keyword too);
    where one does, that one's refusal. An
    in-place ``name_`` speaks for the out-of-place op it runs. ``keywords`` are the arguments
    given by keyword as the op read them (numpy's names as torch's), ``kwargs`` by default;
    ``positional`` the parameters an argument by position fills (a ``*args`` last, filled by
    all after it; ``parameters`` by default); ``hidden``: torch has signatures it does not
    list (:func:`overloads`)."""
    keywords = kwargs if keywords is None else keywords
    if name.endswith("_") and message.startswith(f"{name[:-1]}()"):  # an in-place twin's op
        message = name + message[len(name) - 1:]
    declared = method_signatures(list(signatures)) if method else list(signatures)
    refusal = _ARGUMENT.fullmatch(message) or _TAKES.fullmatch(message) or \
        _MISSING.fullmatch(message) or _MULTIPLE.fullmatch(message)
    if refusal and "failed to unpack" in message:  # an int list read after the parse matched
        refusal = None
    unexpected = _UNEXPECTED.fullmatch(message)
    unexpected = unexpected if unexpected and unexpected[1] in kwargs else None
    # a method left with one signature (its function's out_dtype one dropped) is parsed
    # alone, so it refuses as a single-signature op, never as an invalid combination
    alone = method and len(declared) == 1 < len(signatures) and not hidden
    if declared and not alone and ((refusal and refusal[1] == name) or unexpected) and \
            sum(_plausible(s, len(args) + len(kwargs)) for s in declared) != 1:
        return combination_message(name, args, kwargs, declared)
    if unexpected:  # Python's binding, in torch's words
        if method and name in PYTHON_METHODS:  # Python's own words for torch's Python method
            return f"Tensor.{name}() got an unexpected keyword argument '{unexpected[1]}'"
        # torch's parser names the first keyword that is no parameter's name, a numpy name
        # it read included
        unknown = next((k for k in kwargs if k not in parameters or (method and k == "out")),
                       unexpected[1])
        return f"{name}() got an unexpected keyword argument '{unknown}'"
    element = _TENSOR_ELEMENT.fullmatch(message)
    if element and method and parameters[:1] != ["self"] and int(element[2]):
        # torch counts the arguments after a method's tensor
        return f"expected Tensor as element {element[1]} in argument {int(element[2]) - 1}" \
            f"{element[3]}"
    refusal = _ARGUMENT.fullmatch(message)
    if refusal and refusal[1] == name and (refusal[3] or refusal[4].startswith("must be ")):
        fn, argument, position, should = refusal.groups()  # ("failed to unpack" has none)
        # the parameters passed by position, where their order is torch's: a method's, or a
        # function's with one signature (overloads may shift them: randint(high, size))
        names = parameters if positional is None else positional
        given = [names[min(i, len(names) - 1)] for i in range(method, method + len(args))] \
            if (method or not declared) and names else \
            _plausible_names(declared, len(args), len(args) + len(kwargs))
        if argument in given:  # (also by keyword: a wrapper's, the positional one refused)
            position = given.index(argument) + 1
        elif argument in keywords:  # torch names no bad element of a keyword's sequence
            from ._args import type_name

            position = None
            should = _ELEMENT.sub(rf"\1, not {type_name(keywords[argument])}", should)
        elif position and method and parameters[:1] != ["self"]:
            position = int(position) - 1
        where = f" (position {position})" if position else ""
        return f"{fn}(): argument '{argument}'{where} {should}"
    combination = _COMBINATION.match(message)
    if combination and combination[1] == name:
        listed = re.findall(r"^ \* \((.*)\)$", message, re.M) or \
            re.findall(r"but expected \((.*)\)$", message)
        forms = declared or (method_signatures(listed) if method else listed)
        return combination_message(name, args, kwargs, forms)
    return None


def _plausible_names(signatures: list, given: int, count: int) -> list:
    """The names of the first ``given`` parameters of the one of ``signatures`` that takes
    ``count`` arguments (which torch's parser parses again to word its refusal); none where
    no one signature does.

    >>> _plausible_names(["Tensor input", "Tensor input, int dim, bool keepdim = False"], 3, 3)
    ['input', 'dim', 'keepdim']
    """
    plausible = [s for s in signatures if _plausible(s, count)]
    if len(plausible) != 1:
        return []
    return [p[0] for p in _signature_parameters(plausible[0]) if not p[3]][:given]


def torch_arity(message: str, name: str, method: bool, required: list,
                bare: bool = False, keywords: bool = False) -> str | None:
    """Python's refusal of a call's argument count (``message``) in the words of torch's
    parser, for ``name`` with the ``required`` parameters (after ``self`` for a ``method``,
    whose count Python's message includes): torch counts the positional arguments after
    ``self`` and names every required one from the first missing, quoted as a C string
    (its "argument" and "arguments" swapped, as in its source). A ``bare`` method, that
    takes nothing but ``self``, is a C method in torch, refused in Python's words for one
    (any keyword first, where the call gave ``keywords``). None for other messages.

    >>> torch_arity("f() missing 1 required positional argument: 'dim1'", "transpose", True,
    ...             ["dim0", "dim1"])
    'transpose() missing 1 required positional arguments: "dim1"'
    >>> torch_arity("f() takes 2 positional arguments but 3 were given", "view_as", True,
    ...             ["other"])
    'view_as() takes 1 positional argument but 2 were given'
    """
    if bare and (keywords or _UNEXPECTED.fullmatch(message)):
        return f"TensorBase.{name}() takes no keyword arguments"
    missing = _PYTHON_MISSING.fullmatch(message)
    if missing:
        names = required[required.index(missing[1]):] if missing[1] in required else \
            re.findall(r"'(\w+)'", message)
        quoted = ", ".join(f'"{n}"' for n in names)
        return (f"{name}() missing {len(names)} required positional argument"
                f"{'s' * (len(names) == 1)}: {quoted}")
    takes = _PYTHON_TAKES.fullmatch(message)
    if takes:
        high, given = int(takes[1]) - method, int(takes[2]) - method
        if bare:
            return f"TensorBase.{name}() takes no arguments ({given} given)"
        if len(required) < high:
            return (f"{name}() takes from {len(required)} to {high} positional arguments but "
                    f"{given} were given")
        return (f"{name}() takes {high} positional argument{'s' * (high != 1)} but {given} "
                f"{'were' if given != 1 else 'was'} given")
    return None


def _is_generator(value: Any) -> bool:
    from ._generator import Generator

    return isinstance(value, Generator)


def _ints_like(value: Any) -> bool:
    """The parser's match of ``tuple of ints``: a tuple or list whose first item is an int
    (the others are read when unpacked), or one int."""
    if isinstance(value, (tuple, list)):
        return not value or _args.as_int(value[0]) is not None
    return _args.as_int(value) is not None


def _dtype_like(value: Any) -> bool:
    from ._dtype import dtype

    return isinstance(value, dtype) or value in (float, int, bool)


# torch's parameter types whose check its parser makes as it binds: the name its messages
# give, and the check (a parameter of another type, or annotated ``Any``, is not checked)
_PARSER_TYPES = {"int": ("int", lambda v: _args.as_int(v) is not None),
                 "bool": ("bool", lambda v: v is True or v is False),
                 "Tensor": ("Tensor", _args.is_tensor),
                 "float": ("float", _args.reads_as_double),
                 "Number": ("Number", lambda v: isinstance(v, (int, float, complex)) or
                            _args.holds_number(v)),
                 "tuple of ints": ("tuple of ints", _ints_like),
                 "torch.dtype": ("torch.dtype", _dtype_like),
                 "str": ("str", lambda v: isinstance(v, str)),
                 "tuple of Tensors": ("tuple of Tensors", lambda v: isinstance(v, (
                     tuple, list)) and all(_args.is_tensor(t) for t in v)),
                 "torch.Generator": ("torch.Generator", _is_generator)}
_PARSER_TYPES.update({"Dims": _PARSER_TYPES["tuple of ints"],  # minitorch's names of them
                      "D.dtype": _PARSER_TYPES["torch.dtype"],
                      # a list of no fixed size, which no bare int stands for
                      "int[]": ("tuple of ints", lambda v: isinstance(v, (tuple, list)) and
                                _ints_like(v))})
# the ops whose Tensor parameters torch's parser lets a Python number through (it wraps it)
NUMBERS_AS_TENSORS = frozenset({"add", "sub", "mul", "div", "true_divide", "floor_divide",
                                 "subtract", "multiply", "divide"})
# the torch type of a parameter annotated ``Any`` by its name, where every op that has it
# gives it that type (an op declares another by :func:`parser_types`); a list of ints
# ("Dims") may be None where it defaults to None
_TYPES_BY_NAME = {"dtype": "torch.dtype | None", "keepdim": "bool",
                  "generator": "torch.Generator | None", "tensors": "tuple of Tensors",
                  **dict.fromkeys(("kernel_size", "stride", "padding", "dilation",
                                   "output_padding", "output_size", "normalized_shape", "dims",
                                   "split_sizes", "pad", "shape", "size"), "Dims")}


def types_first(fn: Callable, name: str, args: tuple, kwargs: dict, method: bool
                ) -> str | None:
    """torch's refusal of an argument of the wrong type, where Python refused the call's
    binding (a keyword unknown or given twice, an argument missing) and torch's parser, which
    checks each parameter's type as it binds it in order, finds a type error first: at a
    parameter before the first missing one, of a type the parser checks (its annotation, or
    the torch type :func:`parser_types` declares for it). None otherwise, and where more
    arguments come by position than the op takes (torch counts them before any type).

    >>> def transpose_(self: Tensor, dim0: int, dim1: int): ...
    >>> types_first(transpose_, "transpose_", (None, "x"), {}, method=True)
    "transpose_(): argument 'dim0' (position 1) must be int, not str"
    """
    params = tuple(p for p in _parser_parameters(fn)  # (out=: no method's parameter)
                   if not (method and p and p[0] == "out"))
    if kwargs and not (method and len(params) == 1) and \
            (too_many := too_many_positional(fn, name, args, method)) is not None:
        return too_many  # torch's parser counts the positional arguments before a keyword
    if not any(p and p[1] for p in params):  # most ops (the in-place path asks each call)
        return None
    return _first_type_error(name, params[method:], args[method:], kwargs, 1)


def positional_types(fn: Callable, name: str, args: tuple, kwargs: dict | None = None
                     ) -> str | None:
    """torch's refusal of the positional ``args`` of the function ``fn`` (too many, or one of
    a type its parser checks: :func:`parser_types`), and of its parameters before the
    keyword-only ones given by keyword (``kwargs``), which its parser reads before any
    keyword-only one (a factory's ``dtype=``, ``layout=``); None where they pass.

    >>> def full(size: Any, fill_value: float): ...
    >>> positional_types(full, "full", ((2,), None))
    "full(): argument 'fill_value' (position 2) must be float, not NoneType"
    """
    if (too_many := too_many_positional(fn, name, args, False)) is not None:
        return too_many
    params = tuple(p for p in _parser_parameters(fn) if p is None or not p[3])
    return _first_type_error(name, params, args, kwargs or {}, 1) if args or kwargs else None


def parameter_types(fn: Callable, name: str, args: tuple, kwargs: dict) -> str | None:
    """torch's refusal of the type of one of the function ``fn``'s arguments, read in the
    order of its parameters (:func:`parser_types`), or None; for a keyword its parser reads
    after them (``out=``).

    >>> def cumsum(input: Any, dim: int): ...
    >>> parameter_types(cumsum, "cumsum", (None, 1.5), {})
    "cumsum(): argument 'dim' (position 2) must be int, not float"
    """
    return _first_type_error(name, _parser_parameters(fn), args, kwargs, 1)


def parameter_values(fn: Callable, name: str, args: tuple, kwargs: dict) -> None:
    """torch's binding's unpacking of the int and Number arguments of ``fn`` (its parser's
    types: :func:`parser_types`), right to left as GCC evaluates them, once every type has
    matched and before the op runs: an int past what int64 (a Scalar: uint64) holds refused.

    >>> def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1): ...
    >>> parameter_values(parser_types(beta="Number")(addmm), "addmm", (), {"beta": 10 ** 20})
    Traceback (most recent call last):
    OverflowError: int too big to convert
    """
    signatures = getattr(fn, "torch_signatures", ())  # (an untyped one's type: its first
    # overload's)
    declared = {p[0]: p[1] for p in _signature_parameters(signatures[0])} if signatures else {}
    given = []
    for i, param in enumerate(_parser_parameters(fn)):
        if param is None:
            break
        value = args[i] if i < len(args) else kwargs.get(param[0])
        kind = param[1] or declared.get(param[0])
        if kind and kind[0] in ("int", "Number", "tuple of ints") and (
                type(value) is int or (kind[0] == "tuple of ints" and isinstance(value, (
                    tuple, list)))):
            given.append((param[0], kind[0], i, value))
    for pname, kind, i, value in reversed(given):
        if kind == "int" or (kind == "tuple of ints" and type(value) is int):
            _args.integer(name, value, pname, i + 1)
        elif kind == "tuple of ints":
            _args.sizes(name, (value,), pname, check_negative=False, position=i + 1)
        elif not _args.INT64_MIN <= value < 2 ** 64:
            raise _args.int_overflow(value)


def too_many_positional(fn: Callable, name: str, args: tuple, method: bool) -> str | None:
    """torch's refusal of more positional arguments than ``name`` takes (Python names an
    unknown keyword first), or None."""
    positional, _, taken = _parameters(fn)
    if taken is None or len(args) <= taken:
        return None
    required = [p for p in positional if p in _torch_required(fn)]
    return torch_arity(f"{name}() takes {taken} positional arguments but {len(args)} were "
                       "given", name, method, list(required[method:]))


def _overload_types_first(name: str, args: tuple, kwargs: dict, signatures: tuple,
                          method: bool) -> str | None:
    """:func:`signature_types_first` on the one of torch's ``signatures`` (function form)
    that takes as many arguments as the call (``args`` without a method's tensor), if one
    does: torch's parser words its refusal by parsing that one again (too many positional
    arguments first)."""
    forms = method_signatures(list(signatures)) if method else list(signatures)
    plausible = [s for s in forms if _plausible(s, len(args) + len(kwargs))]
    if len(plausible) != 1:
        return None
    params = _signature_parameters(plausible[0])
    most, least = sum(not p[3] for p in params), sum(p[4] for p in params)
    if len(args) > most:  # torch's extra_args, counted against that signature
        return (f"{name}() takes from {least} to {most} positional arguments but {len(args)} "
                "were given" if least != most else
                f"{name}() takes {most} positional argument{'s' * (most != 1)} but "
                f"{len(args)} {'was' if len(args) == 1 else 'were'} given")
    return signature_types_first(name, plausible[0], args, kwargs, 1)


@functools.lru_cache(maxsize=1024)
def _one_plausible(signatures: tuple, count: int, method: bool) -> tuple | None:
    """The parameters of the one of ``signatures`` that takes ``count`` arguments, or None."""
    forms = method_signatures(list(signatures)) if method else list(signatures)
    plausible = [s for s in forms if _plausible(s, count)]
    return _signature_parameters(plausible[0]) if len(plausible) == 1 else None


def _read_alone(signatures: tuple, hidden: bool, count: int, method: bool) -> tuple | None:
    """The parameters of the signature torch's parser reads a refused call of ``count``
    arguments by: a method's only one (none hidden), else the one that takes that many."""
    if method and not hidden and len(forms := method_signatures(list(signatures))) == 1:
        return _signature_parameters(forms[0])
    return _one_plausible(signatures, count, method)


def overload_refusal(name: str, args: tuple, kwargs: dict, signatures: tuple,
                     method: bool) -> str | None:
    """torch's refusal of a call (``args`` without a method's tensor) of an op with several
    ``signatures`` that its one plausible signature does not parse, by a keyword that names
    an argument given by position or by a required argument left out (minitorch's own
    parameter names may take such a call: ``randint(3, high=[2])``): torch parses that
    signature again, reading each type in order, then the first argument missing, then the
    keywords left over. None where that signature parses, or is not the only plausible one.

    >>> overload_refusal("f", (3,), {"high": 2}, ("int high, int size", "int n"), False)
    'f() missing 1 required positional arguments: "size"'
    """
    params = _one_plausible(signatures, len(args) + len(kwargs), method)
    if params is None or len(args) > sum(not p[3] for p in params):
        return None
    names = [p[0] for p in params]
    unknown = any(k not in names for k in kwargs)
    if not (any(names.index(k) < len(args) for k in kwargs if k in names) or
            any(p[4] and p[0] not in kwargs for p in params[len(args):])):
        return None  # the signature parses (an unknown keyword is then Python's to refuse)
    if typed := _first_type_error(name, params, args, kwargs, 1):
        return typed
    for i, (pname, _, _, _, required_) in enumerate(params):
        if i >= len(args) and required_ and pname not in kwargs:
            lacking = [p[0] for p in params[i:] if p[4]]
            listed = ", ".join(f'"{n}"' for n in lacking)
            return (f"{name}() missing {len(lacking)} required positional argument"
                    f"{'s' * (len(lacking) == 1)}: {listed}")
    if unknown:
        return None  # (torch names a keyword given twice and an unknown one both at the end)
    twice = next(k for k in kwargs if names.index(k) < len(args))
    return f"{name}() got multiple values for argument '{twice}'"


def keyword_fits_none(name: str, kwargs: dict, signatures: tuple, method: bool,
                      count: int) -> bool:
    """Whether no one of an op's ``signatures`` can take the keywords ``kwargs`` of a call of
    ``count`` arguments: each either lacks one of their names or declares one a ``Tensor``
    that is given no tensor (a number given as ``src=`` fits neither ``Tensor src`` nor
    ``Number value``), and more than one takes that many arguments (else torch words its
    refusal by that one). minitorch's Python signature, which names both, would take it.

    >>> keyword_fits_none("scatter", {"src": 2.0}, ("int dim, Tensor src", "int dim, Number value"),
    ...                   True, 2)
    True
    """
    if _one_plausible(signatures, count, method) is not None:
        return False  # (torch words the refusal by that one signature: not this check's)
    forms = method_signatures(list(signatures)) if method else list(signatures)
    mistyped = False
    for form in forms:
        declared = _signature_parameters(form)
        params = {p[0]: p for p in declared}
        if not params.keys() >= kwargs.keys():
            continue
        wrong = [k for k, v in kwargs.items() if params[k][1] and params[k][1][0] == "Tensor"
                 and not params[k][2] and not _args.is_tensor(v) and not (
                     name.rstrip("_") in NUMBERS_AS_TENSORS and isinstance(v, (int, float)))]
        # (a required parameter after the positional ones left out: var(x, unbiased=False,
        # out=y) names only what (input, dim, unbiased, ...) takes, without its dim)
        wrong += [p[0] for p in declared[count - len(kwargs):] if p[4] and p[0] not in kwargs]
        if not wrong:
            return False
        mistyped = True
    return mistyped  # (a keyword no form names at all is Python's to refuse)


def signature_types_first(name: str, signature: str, args: tuple, kwargs: dict,
                          first: int) -> str | None:
    """:func:`types_first` for the call ``args``, ``kwargs`` (without a method's tensor) of
    one of torch's ``signatures`` as :func:`overloads` declares them: the one torch's parser
    parses again, to word its refusal, when it is the only one that takes that many
    arguments. ``first`` is the position of ``args[0]`` in torch's message.

    >>> signature_types_first("max", "int dim, bool keepdim = False", (True,), {"dim": 0}, 1)
    "max(): argument 'dim' (position 1) must be int, not bool"
    """
    return _first_type_error(name, _signature_parameters(signature), args, kwargs, first)


def _first_type_error(name: str, params: tuple, args: tuple, kwargs: dict,
                      first: int) -> str | None:
    """torch's parser on ``params`` (``(name, type, optional, keyword_only, required)``,
    or None for a ``*args`` that ends the check): the first refusal of a type, or None."""
    if args and (len(args) > len(params) or params[len(args) - 1] is None or
                 params[len(args) - 1][3]):
        return None  # more by position than it takes (keyword-only ones come last)
    for i, param in enumerate(params):
        if param is None:
            return None
        pname, kind, optional, _, required_ = param
        if i < len(args):
            value, where = args[i], f" (position {i + first})"
        elif pname in kwargs:
            value, where = kwargs[pname], ""
        elif required_:
            return None  # missing: Python's (torch's) message stands
        else:
            continue
        if kind is None or (optional and value is None) or (kind[1](value) and (
                kind[0] != "int" or _args.as_param_int(value, pname, name) is not None)) or (
                kind[0] == "Tensor" and name.rstrip("_") in NUMBERS_AS_TENSORS and
                isinstance(value, (int, float, complex))):
            continue
        if kind[0] == "tuple of Tensors" and isinstance(value, (tuple, list)):
            at = next(j for j, v in enumerate(value) if not _args.is_tensor(v))
            return (f"expected Tensor as element {at} in argument {i}, but got "
                    f"{_args.type_name(value[at])}")
        if kind[0] == "tuple of ints" and isinstance(value, (tuple, list)) and where:
            # (torch names the item of a list given by position only)
            return (f"{name}(): argument '{pname}'{where} must be tuple of ints, but found "
                    f"element of type {_args.type_name(value[0])} at pos 0")
        return (f"{name}(): argument '{pname}'{where} must be {kind[0]}, not "
                f"{_args.type_name(value)}")
    return None


@functools.lru_cache(maxsize=1024)
def _parser_parameters(fn: Callable) -> tuple:
    """Each parameter of ``fn`` as :func:`_first_type_error` reads it (None for a ``*args``
    or ``**kwargs``): its type from :func:`parser_types`, else from its annotation, which
    ``X | None`` makes optional."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a callable of no signature: nothing to check
        return ()
    declared = getattr(fn, "parser_types", {})
    typed = []
    for p in params:
        if p.kind is p.VAR_KEYWORD or (p.kind is p.VAR_POSITIONAL and p.name not in declared):
            typed.append(None)
            continue  # (a declared ``*dims`` is torch's one list, when given as one)
        annotation = declared.get(p.name, str(p.annotation))
        if annotation in ("Any", "typing.Any"):
            annotation = _TYPES_BY_NAME.get(p.name, annotation)
        optional = annotation.endswith(" | None") or (annotation == "Dims" and
                                                      p.default is None)
        typed.append((p.name, _PARSER_TYPES.get(annotation.removesuffix(" | None")), optional,
                      p.kind is p.KEYWORD_ONLY,
                      p.default is p.empty or p.default is _args.OMITTED))
    return tuple(typed)


_OPTION_FLAGS = frozenset({"pin_memory", "requires_grad"})


@functools.lru_cache(maxsize=256)
def _signature_parameters(signature: str) -> tuple:
    """The parameters of one of torch's printed signatures, as :func:`_parser_parameters`;
    a creation option's flag lets None through (its default), as torch's generated parsers."""
    params, keyword_only = [], False
    for token in signature.split(", "):
        if token == "*":
            keyword_only = True
            continue
        declaration, _, default = token.partition(" = ")
        kind, _, pname = declaration.rpartition(" ")
        params.append((pname, _PARSER_TYPES.get(kind.removesuffix("?")),
                       kind.endswith("?") or default == "None" or pname in _OPTION_FLAGS,
                       keyword_only, not default))
    return tuple(params)


def parser_types(**types: str) -> Callable:
    """Decorator: the torch types of an op's parameters annotated ``Any`` (that take more
    than torch's parser lets through, or read it themselves), for :func:`types_first`.

    >>> parser_types(p="Number")(lambda input, p: None).parser_types
    {'p': 'Number'}
    """
    def declare(fn: Callable) -> Callable:
        fn.parser_types = types  # type: ignore[attr-defined]
        return fn

    return declare


def _missing_first(message: str, name: str, required: list, positional: list, args: tuple,
                   kwargs: dict) -> str:
    """Python's refusal of an unknown keyword or of one given twice (``message``) as a missing
    argument where the call lacks one of the ``required`` parameters: torch's parser reads its
    parameters before it looks for keywords left over. ``message`` itself otherwise.

    >>> _missing_first("f() got an unexpected keyword argument 'dim'", "permute",
    ...                ["input", "dims"], ["input", "dims"], (None,), {"dim": 0})
    "permute() missing 1 required positional argument: 'dims'"
    """
    if not (_UNEXPECTED.fullmatch(message) or _MULTIPLE.fullmatch(message)):
        return message
    filled = {*positional[:len(args)], *kwargs}
    lacking = next((r for r in required if r not in filled), None)
    return f"{name}() missing 1 required positional argument: '{lacking}'" if lacking else \
        message


def python_method(message: str, name: str) -> str:
    """Python's refusal of a call's arguments (``message``) to the Tensor method ``name``
    that torch writes in Python: under its qualified name, as Python words it.

    >>> python_method("_storage() takes 1 positional argument but 2 were given", "storage")
    'Tensor.storage() takes 1 positional argument but 2 were given'
    """
    return re.sub(r"^[\w.<>]+\(\)", f"Tensor.{name}()", message)


class _Parameters(NamedTuple):
    """What binding an argument list to a function needs to know of its parameters."""

    positional: tuple  # the names a positional argument fills, in order (a ``*args`` last)
    required: tuple  # the names with no default (through the function's wrappers)
    taken: int | None  # how many arguments it takes by position (None: any number)


@functools.lru_cache(maxsize=1024)
def _torch_required(fn: Callable) -> list:
    """The parameters of ``fn`` that torch requires: those without a default, and (where
    torch has one signature) those defaulting to OMITTED, whose absence the op words.

    >>> _torch_required(lambda input, dim=_args.OMITTED, dtype=None: None)
    ['input', 'dim']
    """
    return [p.name for p in inspect.signature(fn).parameters.values() if p.kind in (
        p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and (
            p.default is p.empty or (p.default is _args.OMITTED and p.kind is not p.KEYWORD_ONLY
                                     and not getattr(fn, "torch_signatures", ())))]


def _parameters(fn: Callable) -> _Parameters:
    """``fn``'s :class:`_Parameters` (none where Python cannot read its signature).

    >>> _parameters(lambda input, dim, keepdim=False, *, out=None: None)
    _Parameters(positional=('input', 'dim', 'keepdim'), required=('input', 'dim'), taken=3)
    """
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return _Parameters((), (), None)
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positional = [p for p in params if p.kind in kinds or p.kind is p.VAR_POSITIONAL]
    any_number = any(p.kind is p.VAR_POSITIONAL for p in params)
    return _Parameters(tuple(p.name for p in positional),
                       tuple(p.name for p in params if p.default is p.empty and
                             p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)),
                       None if any_number else len(positional))


def _forwarders(fn: Callable) -> set:
    """The code of the wrappers (``functools.wraps``) around the op ``fn`` passes a call to."""
    codes = set()
    while hasattr(fn, "__wrapped__") and hasattr(fn, "__code__"):
        codes.add(fn.__code__)
        fn = fn.__wrapped__
    return codes


def _refused_by_binding(error: TypeError, forwarders: set) -> bool:
    """Whether Python refused the call's arguments (``error`` raised where :func:`entry`
    or one of the ``forwarders`` called on) rather than the op's own code."""
    frame = error.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    return frame is error.__traceback__ or frame.tb_frame.f_code in forwarders


def alias_of(op: str) -> Callable:
    """Decorator: the function is torch's other name for ``op``, whose refusals it passes on
    under its own name (:func:`entry`).

    >>> alias_of("div")(lambda input, other: None).alias_of
    'div'
    """
    def declare(fn: Callable) -> Callable:
        fn.alias_of = op  # type: ignore[attr-defined]
        return fn

    return declare


def overloads(*signatures: str, hidden: bool = False) -> Callable:
    """Decorator: torch's signatures of a function with several (as its messages print them,
    function form; a type followed by ``?`` takes None, as torch's optional types, which it
    prints without), for :func:`as_called`; ``hidden``: torch has deprecated ones too, which
    its messages never list but which keep its parser from reading a single one alone.

    >>> overloads("int n", "int n, int m")(lambda n, m=None: n).torch_signatures
    ('int n', 'int n, int m')
    """
    def declare(fn: Callable) -> Callable:
        fn.torch_signatures = signatures  # type: ignore[attr-defined]
        fn.torch_hidden = hidden  # type: ignore[attr-defined]
        return fn

    return declare


def python_named(message: str, fn: Callable, args: tuple, kwargs: dict) -> str:
    """Python's refusal ``message`` of a call of ``fn`` under the name of the function torch
    runs (:func:`python_dispatch`), where ``fn`` declares one.

    >>> python_named("f() missing 1 required positional argument: 'x'",
    ...              python_dispatch(lambda args, kwargs: "_f")(lambda x: x), (), {})
    "_f() missing 1 required positional argument: 'x'"
    """
    namer = getattr(fn, "python_dispatch", None)
    return message if namer is None else \
        re.sub(r"^[\w.<>]+\(\)", f"{namer(args, kwargs)}()", message)


def python_dispatch(namer: Callable) -> Callable:
    """Decorator: torch's Python function picks one of several by its flags
    (``boolean_dispatch``), or is defined under another name (``F.threshold`` is
    ``_threshold``), whose name Python's refusal of the call's arguments gives:
    ``namer(args, kwargs)`` (see :func:`entry`).

    >>> python_dispatch(lambda args, kwargs: "_f")(lambda x: x).python_dispatch((), {})
    '_f'
    """
    def declare(fn: Callable) -> Callable:
        fn.python_dispatch = namer  # type: ignore[attr-defined]
        return fn

    return declare


def boolean_dispatch(name: str, flag_at: int) -> Callable:
    """Decorator: torch's Python ``name`` is ``boolean_dispatch`` of ``_name`` and
    ``name_with_indices``, picked by ``return_indices`` (by keyword, or at ``flag_at``): a call
    whose arguments do not bind is Python's refusal by the one picked, before anything is
    checked.

    >>> pool = boolean_dispatch("max_pool2d", 6)(lambda input, kernel_size: None)
    >>> pool(1)
    Traceback (most recent call last):
    TypeError: _max_pool2d() missing 1 required positional argument: 'kernel_size'
    """
    def decorate(fn: Callable) -> Callable:
        signature, original = inspect.signature(fn), inspect.unwrap(fn)

        @functools.wraps(fn)
        def dispatched(*args: Any, **kwargs: Any) -> Any:
            try:
                signature.bind(*args, **kwargs)
            except TypeError:
                flag = kwargs.get("return_indices", len(args) > flag_at and args[flag_at])
                picked = f"{name}_with_indices" if flag else f"_{name}"
                try:
                    original(*args, **kwargs)  # (Python's words for the refusal)
                except TypeError as error:
                    message = re.sub(r"^[\w.<>]+\(\)", f"{picked}()", str(error))
                    raise TypeError(message) from None
            return fn(*args, **kwargs)

        return dispatched

    return decorate


def keyword_alone(keyword: str) -> Callable:
    """Decorator: torch's overload that takes ``keyword`` takes the other options by keyword
    only (``sort(stable=...)``), and its other overloads do not take ``keyword``: given with
    an option by position, it matches none of the function's :func:`overloads`.

    >>> keyword_alone("stable")(lambda input, dim=-1, *, stable=None: None).keyword_alone
    'stable'
    """
    def declare(fn: Callable) -> Callable:
        fn.keyword_alone = keyword  # type: ignore[attr-defined]
        return fn

    return declare


def _alone_refusal(name: str, args: tuple, kwargs: dict, forms: list) -> str:
    """torch's refusal of a :func:`keyword_alone` keyword given with positional options: the
    one overload that takes that many arguments counts the positional ones (in its words,
    "were" even for one), or the invalid combination of them all.

    >>> _alone_refusal("f", (1,), {"s": True, "e": 1}, ["*, bool s, int d = 0, int e = 0",
    ...                                                 "int d = 0, int e = 0"])
    'f() takes from 1 to 0 positional arguments but 1 were given'
    """
    count = len(args) + len(kwargs)
    plausible = [f for f in forms if _plausible(f, count)]
    if len(plausible) != 1:
        return combination_message(name, args, kwargs, forms)
    tokens = plausible[0].split(", ")
    required = sum(" = " not in t for t in tokens if t != "*")
    return (f"{name}() takes from {required} to {tokens.index('*')} positional arguments but "
            f"{len(args)} were given")


def _plausible(signature: str, count: int) -> bool:
    """Whether torch's parser counts ``signature`` as one that takes ``count`` arguments."""
    tokens = [t for t in signature.split(", ") if t not in ("*", "")]
    return sum(" = " not in t for t in tokens) <= count <= len(tokens)


def method_signatures(signatures: list) -> list:
    """The Tensor-method forms of a function's signatures: those that take a ``Tensor input``,
    without it and without ``out`` (already-method signatures come back as they are).

    >>> method_signatures(["Tensor input, Tensor mask, *, Tensor out = None",
    ...                    "Number self, Tensor mask"])
    ['Tensor mask']
    """
    if not any("Tensor input" in s.split(", ") for s in signatures):
        return signatures
    out = []
    for signature in signatures:
        tokens = signature.split(", ")
        if "Tensor input" not in tokens or "torch.dtype out_dtype" in tokens:
            continue  # (torch's out_dtype overloads are functions only)
        tokens = [t for t in tokens if t != "Tensor input" and not t.endswith(" out = None")]
        out.append(", ".join(tokens[:-1] if tokens[-1:] == ["*"] else tokens))
    return out


def combination_message(fn: str, args: tuple, kwargs: dict, signatures: Any) -> str:
    """torch's "invalid combination of arguments" message (its ``format_invalid_args``).

    >>> print(combination_message("clamp_min", (None,), {}, ["Tensor min", "Number min"]))
    clamp_min() received an invalid combination of arguments - got (NoneType), but expected one of:
     * (Tensor min)
          didn't match because some of the arguments have invalid types: (!NoneType!)
     * (Number min)
          didn't match because some of the arguments have invalid types: (!NoneType!)
    <BLANKLINE>
    """
    head = f"{fn}() received an invalid combination of arguments - "
    signatures = [_printed(s) for s in signatures]
    if len(signatures) == 1:
        tokens = _tokens(signatures[0])
        unmatched = _unmatched_keywords(tokens, kwargs)
        if unmatched:
            return head + f"got unrecognized keyword arguments: {', '.join(unmatched)}"
        got = _marked(tokens, args, kwargs) if _count_matches(tokens, args, kwargs) else \
            _described(args, kwargs)
        return head + f"got {got}, but expected ({signatures[0]})"
    lines = [head + f"got {_described(args, kwargs)}, but expected one of:\n"]
    for signature in signatures:
        lines.append(f" * ({signature})\n")
        tokens = _tokens(signature)
        if _count_matches(tokens, args, kwargs):
            unmatched = _unmatched_keywords(tokens, kwargs)
            lines.append("      didn't match because some of the keywords were incorrect: "
                         f"{', '.join(unmatched)}\n" if unmatched else
                         "      didn't match because some of the arguments have invalid "
                         f"types: {_marked(tokens, args, kwargs)}\n")
    return "".join(lines)


def _printed(signature: str) -> str:
    """A declared signature as torch prints it: without the ``?`` that marks a type its
    parser lets None through (torch's ``int[1]? dim``, printed ``tuple of ints dim``).

    >>> _printed("Tensor input, tuple of ints? dim")
    'Tensor input, tuple of ints dim'
    """
    return re.sub(r"\?(?= )", "", signature)


def _tokens(signature: str) -> list:
    """A signature's arguments as torch's message code splits them: ``(type, name)`` for each
    ``", "``-separated piece, split at its last space (so ``"int dim = 0"`` is named ``"0"``,
    and ``"*"`` counts as one)."""
    if signature == "no arguments":
        return []
    return [(t[:t.rfind(" ")] if " " in t else t, t[t.rfind(" ") + 1:])
            for t in signature.split(", ")]


def _count_matches(tokens: list, args: tuple, kwargs: dict) -> bool:
    return len(args) + len(kwargs) == len(tokens)


def _unmatched_keywords(tokens: list, kwargs: dict) -> list:
    names = [name for _, name in tokens[max(len(tokens) - len(kwargs), 0):]]
    return [k for k in _keyword_order(kwargs) if k not in names]


def _keyword_order(kwargs: dict) -> list:
    """The keywords in the order torch's ``std::unordered_map`` (GCC's) gives them back: each
    new key goes to the front of the map's list, or, where its hash bucket (of 13, then 29
    past 13 keys) holds keys, in front of them; growing, the map moves its keys again so.

    >>> _keyword_order(dict.fromkeys(["dtype", "requires_grad", "bad"]))
    ['requires_grad', 'bad', 'dtype']
    """
    order: list = []
    buckets = 13
    for key in kwargs:
        if len(order) == buckets:
            buckets = 29 if buckets == 13 else 59
            order = _bucketed(order, buckets, [])
        order = _bucketed([key], buckets, order)
    return order


def _bucketed(keys: list, buckets: int, order: list) -> list:
    """``order`` with ``keys`` put in as GCC's hash table puts each: in front of the first
    key of its bucket, else at the front."""
    for key in keys:
        bucket = _gcc_string_hash(key) % buckets
        at = next((i for i, k in enumerate(order) if _gcc_string_hash(k) % buckets == bucket),
                  0)
        order.insert(at, key)
    return order


def _gcc_string_hash(text: str) -> int:
    """``std::hash<std::string>`` of GCC's library (its 64-bit Murmur hash, seed 0xc70f6907)."""
    mask, mul = 2 ** 64 - 1, 0xC6A4A7935BD1E995
    data = text.encode()
    whole = len(data) & ~7
    value = 0xC70F6907 ^ (len(data) * mul & mask)
    for i in range(0, whole, 8):
        word = int.from_bytes(data[i:i + 8], "little") * mul & mask
        value = (value ^ ((word ^ word >> 47) * mul & mask)) * mul & mask
    if len(data) & 7:
        value = (value ^ int.from_bytes(data[whole:], "little")) * mul & mask
    value = (value ^ value >> 47) * mul & mask
    return value ^ value >> 47


def _described(args: tuple, kwargs: dict) -> str:
    from ._args import type_name as type_name_of

    given = [type_name_of(a) for a in args]
    given += [f"{k}={type_name_of(kwargs[k])}" for k in _keyword_order(kwargs)]
    return "(" + ", ".join(given) + (", " if kwargs and not args else "") + ")"


def _marked(tokens: list, args: tuple, kwargs: dict) -> str:
    """The given arguments against one signature, the mismatched ones between ``!``."""
    from ._args import type_name as type_name_of

    out = []
    for i, (kind, name) in enumerate(tokens):
        keyword = i >= len(args)
        value = kwargs[name] if keyword else args[i]
        text = (f"{name}=" if keyword else "") + _element_types(value)
        out.append(text if _matches(kind, type_name_of(value)) else f"!{text}!")
    return "(" + ", ".join(out) + (", " if kwargs and not args else "") + ")"


def _element_types(value: Any) -> str:
    from ._args import type_name as type_name_of

    if not isinstance(value, (tuple, list)):
        return type_name_of(value)
    inner = ", ".join(type_name_of(v) for v in value)
    if isinstance(value, tuple):
        return f"tuple of ({inner}{',' if len(value) == 1 else ''})"
    return f"list of [{inner}]"


def _matches(kind: str, given: str) -> bool:
    """torch's message-side type match: names compared as they are (so ``Number`` and
    defaulted arguments never match), ``float`` taking ints too."""
    return given in {"float": ("float", "int"), "int": ("int",)}.get(kind, (kind,))


def function(fn: Callable) -> Callable:
    """Decorator: ``fn`` as the public function of its name (see :func:`entry`).

    >>> @function
    ... def softmax(input, dim):
    ...     raise TypeError("softmax(): argument 'dim' (position 2) must be int, not str")
    >>> softmax(None, dim="a")
    Traceback (most recent call last):
    TypeError: softmax(): argument 'dim' must be int, not str
    """
    return entry(fn, fn.__name__, method=False)


# torch's Tensor methods written in Python (torch/_tensor.py), which its parser never sees
PYTHON_METHODS = frozenset({
    "backward", "register_hook", "register_post_accumulate_grad_hook", "dim_order",
    "is_shared", "share_memory_", "split", "norm", "storage", "unflatten", "unique",
    "unique_consecutive", "resize", "resize_as", "lstsq", "lu"})
# torch's functions written in Python (torch/functional.py, ...), which its parser never sees
PYTHON_FUNCTIONS = frozenset({
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "cdist", "einsum", "norm",
    "split", "lu",
    "unique", "unique_consecutive", "is_tensor", "typename", "load", "save", "manual_seed",
    "seed", "initial_seed", "get_rng_state", "set_rng_state", "set_default_dtype",
    "set_default_device", "get_default_device", "use_deterministic_algorithms",
    "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
    "vmap", "set_deterministic_debug_mode", "get_deterministic_debug_mode", "set_warn_always",
    "is_warn_always_enabled"})
# torch's Python functions, which its argument parser never sees (and which torch re-exports
# as the same objects: ``torch.vmap is torch.func.vmap``)
_PYTHON_LEVEL = ("minitorch.func", "minitorch.autograd", "minitorch.serialization")


def public_functions(namespace: dict, prefix: str = "") -> None:
    """Every function in ``namespace`` (a package's globals) defined in minitorch, as an
    :func:`entry` named as torch's parser names it (``prefix`` + its name)."""
    for name, value in list(namespace.items()):
        if inspect.isfunction(value) and not name.startswith("_") and \
                value.__module__.startswith("minitorch") and \
                not value.__module__.startswith(_PYTHON_LEVEL) and not hasattr(value, "op"):
            namespace[name] = entry(value, prefix + name, method=False)
            if prefix:  # torch's linalg and special functions are named with their prefix
                namespace[name].__name__ = prefix + name


def function_signature(method: Callable) -> inspect.Signature:
    """The signature of the function form of a Tensor method: its first parameter (``self``)
    named ``input``.

    >>> str(function_signature(lambda self, dim=0: None))
    '(input, dim=0)'
    """
    signature = inspect.signature(method)
    first, *rest = signature.parameters.values()
    return signature.replace(parameters=[first.replace(name="input"), *rest])


def unwrapped(fn: Callable) -> Callable:
    """The op behind an :func:`entry` (``fn`` itself if it is none)."""
    return getattr(fn, "op", fn)
