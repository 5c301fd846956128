"""Hearts pages: the table, deal URLs and the rules page."""

from fastapi import APIRouter

router = APIRouter()
