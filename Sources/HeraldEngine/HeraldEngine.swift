// HeraldEngine
